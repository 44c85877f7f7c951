import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { assertionLookup } from "../../detect/assertion-types.js";
import { discoverRepository } from "../../detect/discover.js";
import { parseSkillFile } from "../../detect/skill-file.js";
import "../../grade/assertions/index.js";
import * as assertionRegistry from "../../grade/assertions/registry.js";
import { EXIT } from "../../report/exit-codes.js";
import { readConfig } from "../../settings/policy.js";
import type { CliIO } from "../io.js";
import { parseCommandLine, UsageError } from "../usage.js";
import { probeScaffold } from "./init-probes.js";

export const INIT_USAGE = `Usage: skillgate init SKILL [options]

Scaffolds an eval suite in SKILL's folder (SKILL: a skill name, its folder, or its SKILL.md): evals/meta.json,
evals/prompts/example.yaml (one case with a discriminator) and evals/trigger-eval.json. What only you can
write is left as TODO-… keys that \`skillgate validate\` rejects, at their lines, until you replace them.

  --repo DIR    repository root (default .)
  --robustness  also one probe per robustness dimension (prompts/probe-*.yaml; docs/robustness.md)
  --force       overwrite an existing scaffold

Exit codes: 0 done, 2 usage error.`;

const SKILL_ROOTS = [".claude/skills", ".agents/skills", ".github/skills", ".agent/skills", "skills"];

/** Placeholder keys: not in any schema, so \`validate\` reports each at its line until it is replaced. */
export const TODO_KEYS = ["TODO-prompt", "TODO-value", "TODO-shouldFire", "TODO-shouldNotFire"] as const;

export async function initCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, {
    options: {
      repo: { type: "string" },
      force: { type: "boolean" },
      robustness: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    allowPositionals: true,
  });
  if (values.help) {
    io.stdout(`${INIT_USAGE}\n`);
    return EXIT.pass;
  }
  if (positionals.length !== 1)
    throw new UsageError(
      positionals.length ? `expected one skill, got ${positionals.length}` : "expected a skill",
    );
  const repoDir = resolve(values.repo ?? ".");
  const skillDir = findSkillDir(repoDir, positionals[0]!);
  const skillFile = join(skillDir, "SKILL.md");
  const rel = relative(repoDir, skillFile).split("\\").join("/");
  const parsed = parseSkillFile(rel, readFileSync(skillFile, "utf8"), "claude-code");
  const name = parsed.name ?? basename(skillDir);
  const version = parsed.version ?? "1";
  const evalsDir = join(skillDir, "evals");
  const files: Record<string, string> = {
    "meta.json": `${JSON.stringify(
      {
        skillVersion: version,
        suiteVersion: "1",
        // Five first-batch trials: with three, a case at 0.5 passes all of them one PR in eight and is never
        // looked at again (power cannot pass 87.5 %); with five, one in 32 (docs/verdict.md).
        trials: 5,
        thresholds: {
          discriminatorPassRate: 0.8,
          discriminatorLift: 0.3,
          triggerPrecision: 0.8,
          triggerRecall: 0.8,
        },
      },
      null,
      2,
    )}\n`,
    "prompts/example.yaml": `# One case of the ${name} suite; add more files like this one in prompts/.
# A discriminator (id starting D:) forbids the single most tempting wrong answer an agent gives without the
# skill: test for the absence of that answer, not for one exact right answer.
# Replace each TODO- key with the key it names (\`skillgate validate\` rejects the file until you do):
#   TODO-prompt -> prompt: a realistic task where an agent without ${name} confidently answers wrong
#   TODO-value  -> value:  that wrong answer (the discriminator fails when the output contains it)
id: example
TODO-prompt: "a realistic task where an agent without the ${name} skill confidently answers wrong"
assertions:
  - id: D:avoids-the-tempting-wrong-answer
    type: not-contains
    TODO-value: "the wrong answer an agent gives without the skill"
  - id: activated
    type: skill-used
`,
    // JSON has no comments: the keys themselves say what to write (10 or more of each is a useful battery).
    "trigger-eval.json": `${JSON.stringify(
      {
        "TODO-shouldFire": [
          { prompt: `a request that should make the agent load ${name}` },
          { prompt: `another one, worded the way your users ask` },
        ],
        "TODO-shouldNotFire": [
          { prompt: `a near miss: close to ${name}'s topic, but another skill's or none` },
          { prompt: "another near miss" },
        ],
      },
      null,
      2,
    )}\n`,
  };
  // A skill that has a suite keeps it: probes go into its folder, and its own files are not scaffolded again. A
  // suite with no case yet (a trigger set alone) is what init is for: the scaffold goes beside it, as for none.
  const found = existingSuite(repoDir, skillDir);
  const suite = found && found.cases > 0 ? found : undefined;
  if (found && !suite) io.stdout(`${found.root} holds a suite with no case yet: its trigger queries stay\n`);
  const target = suite ? join(repoDir, suite.root) : evalsDir;
  if (suite) {
    if (!values.robustness && !values.force)
      throw new UsageError(
        `${name} already has an eval suite in ${suite.root} (${suite.formats.join(", ")}); \`--robustness\` adds probes to it; pass --force to overwrite the scaffold's files`,
      );
    if (!values.force) for (const f of Object.keys(files)) delete files[f];
    io.stdout(`using the existing suite folder ${suite.root}\n`);
  }
  if (values.robustness) Object.assign(files, probeScaffold(name));
  const existing = Object.keys(files).filter((f) => existsSync(join(target, f)));
  if (existing.length && !values.force)
    throw new UsageError(
      `${relative(repoDir, target)} already has ${existing.join(", ")}; pass --force to overwrite`,
    );
  for (const [f, content] of Object.entries(files)) {
    mkdirSync(dirname(join(target, f)), { recursive: true });
    writeFileSync(join(target, f), content);
    io.stdout(`created ${relative(repoDir, join(target, f)).split("\\").join("/")}\n`);
  }
  io.stdout(nextSteps(repoDir, values.repo, name, Object.keys(files)));
  return EXIT.pass;
}

/** The skill's suite as discovery finds it (its root and formats), when it has one. */
function existingSuite(
  repoDir: string,
  skillDir: string,
): { root: string; formats: string[]; cases: number } | undefined {
  const rel = relative(repoDir, skillDir).split("\\").join("/");
  const skill = discoverRepository(repoDir, {
    profile: "claude-code",
    assertionTypes: assertionLookup(assertionRegistry),
  }).skills.find((s) => s.dir === rel);
  return skill?.suite
    ? { root: skill.suite.root, formats: skill.suite.formats, cases: skill.suite.cases.length }
    : undefined;
}

/** What to do next, with the agent the repository's configuration names (or how to choose one). */
function nextSteps(repoDir: string, repo: string | undefined, name: string, written: string[]): string {
  const repoArg = repo === undefined ? "" : ` --repo ${shellWord(repo)}`;
  const todo = written
    .filter((f) => f.endsWith(".yaml") || f.endsWith(".json"))
    .filter((f) => f !== "meta.json");
  const agent = readConfig({ kind: "dir", dir: repoDir }).config.agent;
  const run = agent
    ? [
        `  2. Run the suite against the configured agent (${agent.adapter}${agent.command ? `: ${agent.command}` : ""}${agent.model ? `, model ${agent.model}` : ""}):`,
        `       skillgate run${repoArg} --skills ${shellWord(name)}`,
      ]
    : [
        "  2. Run the suite against your agent: set `agent:` in .skillgate.yml (docs/configuration.md), or for one",
        "     run name it (here Claude Code: `claude` on PATH and ANTHROPIC_API_KEY set):",
        `       skillgate run${repoArg} --skills ${shellWord(name)} --agent claude-code`,
      ];
  return [
    "",
    "Next steps:",
    `  1. Replace the TODO- keys in ${todo.length > 3 ? `the ${todo.length} files above` : todo.join(", ")}; validate shows where each one is:`,
    `       skillgate validate${repoArg}`,
    ...run,
    "",
  ].join("\n");
}

/** A word as a POSIX shell reads it back. */
function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}

function findSkillDir(repoDir: string, arg: string): string {
  const direct = resolve(repoDir, arg);
  if (existsSync(direct)) {
    const dir = statSync(direct).isDirectory() ? direct : dirname(direct);
    if (existsSync(join(dir, "SKILL.md"))) return dir;
  }
  for (const root of SKILL_ROOTS) {
    const dir = join(repoDir, root, arg);
    if (existsSync(join(dir, "SKILL.md"))) return dir;
  }
  // Any layout: a plugin's skill (`plugin:name`), a grouped or curated one.
  const found = discoverRepository(repoDir, {
    profile: "claude-code",
    assertionTypes: assertionLookup(assertionRegistry),
  }).skills.filter((s) => s.name === arg || s.name.endsWith(`:${arg}`));
  if (found.length === 1) return join(repoDir, found[0]!.dir);
  throw new UsageError(
    found.length > 1
      ? `\`${arg}\` names ${found.length} skills (${found.map((s) => s.name).join(", ")}): give the full name or the folder`
      : `no skill \`${arg}\`: no SKILL.md at ${arg}/ and no skill of that name in the repository`,
  );
}
