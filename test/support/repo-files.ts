import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A fresh temp folder holding a copy of `from` (if given) and then `files` (repository-relative path → content). */
export function writeRepo(files: Record<string, string>, prefix = "sg-repo-", from?: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (from) cpSync(from, dir, { recursive: true });
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
  return dir;
}

/**
 * The split-cents skill with a one-case discriminator suite, for the real Claude Code CLI at `claude` (one trial,
 * 120 s); `config` adds lines to .skillgate.yml.
 */
export function splitCentsClaudeFiles(claude: string, config = ""): Record<string, string> {
  return {
    ".skillgate.yml": `agent:\n  adapter: claude-code\n  command: ${claude}\ntrials: 1\n${config}timeoutSeconds: 120\n`,
    ".claude/skills/split-cents/SKILL.md":
      "---\nname: split-cents\ndescription: Split money amounts in cents among people without losing a cent.\n---\n\nUse the largest remainder method: 1000 among 3 is 334, 333, 333.\n",
    ".claude/skills/split-cents/evals/meta.json": JSON.stringify({
      skillVersion: "1",
      suiteVersion: "1",
      trials: 1,
      thresholds: {},
    }),
    ".claude/skills/split-cents/evals/prompts/split.json": JSON.stringify({
      id: "split-1000-3",
      prompt: "Split 1000 cents among 3 people.",
      assertions: [{ id: "D:no-lost-cent", type: "not-one-of", extract: "first-number", values: [333] }],
    }),
  };
}
