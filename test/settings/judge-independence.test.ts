/**
 * Issue #28 item 4: the judge grading the model under test grades its own answers. A judge configured as the agent
 * (or as one cell of the matrix) is a located warning in the base's `.skillgate.yml`; a different model is not.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readConfig } from "../../src/settings/policy.js";
import { resolvePolicy } from "../../src/settings/resolve.js";
import { runCli } from "../support/run-cli.js";

const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});
function repo(config: string): string {
  const dir = mkdtempSync(join(tmpdir(), "sg-judge-indep-"));
  scratch.push(dir);
  writeFileSync(join(dir, ".skillgate.yml"), config);
  return dir;
}
const warnings = (config: string) =>
  readConfig({ kind: "dir", dir: repo(config) })
    .diagnostics.filter((d) => d.code === "config/judge-is-agent")
    .map((d) => `${d.file}:${d.line}:${d.column} ${d.severity}`);

describe("the judge is not the agent under test", () => {
  it("a judge of the agent's model is a warning at the judge's model", () => {
    expect(
      warnings(
        "agent:\n  adapter: claude-code\n  model: claude-sonnet-4-5\njudge:\n  adapter: anthropic\n  model: claude-sonnet-4-5\n",
      ),
    ).toEqual([".skillgate.yml:6:3 warning"]);
  });

  it("the same model under another spelling (a dated id, a provider prefix, Claude Code's alias) is the same model", () => {
    expect(
      warnings(
        "agent:\n  adapter: claude-code\n  model: sonnet\njudge:\n  adapter: anthropic\n  model: claude-sonnet-4-5-20250929\n",
      ),
    ).toHaveLength(1);
    expect(
      warnings(
        "agent:\n  adapter: openai\n  model: openai/gpt-4o-mini\njudge:\n  adapter: openai\n  model: GPT-4o-mini\n",
      ),
    ).toHaveLength(1);
  });

  it("a judge left on its adapter's default model is compared as that model, located at the judge", () => {
    expect(
      warnings("agent:\n  adapter: anthropic\n  model: claude-sonnet-4-5\njudge:\n  adapter: anthropic\n"),
    ).toEqual([".skillgate.yml:4:1 warning"]);
  });

  it("each cell of a matrix is compared", () => {
    const config =
      "agents:\n  - name: opus\n    adapter: claude-code\n    model: claude-opus-4-1\n  - name: mini\n    adapter: codex\n    model: gpt-4o-mini\njudge:\n  adapter: openai\n  model: gpt-4o-mini\n";
    expect(warnings(config)).toHaveLength(1);
    const d = readConfig({ kind: "dir", dir: repo(config) }).diagnostics.find(
      (x) => x.code === "config/judge-is-agent",
    );
    expect(d?.message).toContain("cell mini");
  });

  it("another model, another family, or an agent whose model is not written down: no warning", () => {
    expect(
      warnings(
        "agent:\n  adapter: claude-code\n  model: claude-sonnet-4-5\njudge:\n  adapter: anthropic\n  model: claude-opus-4-1\n",
      ),
    ).toEqual([]);
    expect(
      warnings(
        "agent:\n  adapter: claude-code\n  model: sonnet\njudge:\n  adapter: openai\n  model: gpt-4o\n",
      ),
    ).toEqual([]);
    expect(warnings("agent:\n  adapter: claude-code\njudge:\n  adapter: anthropic\n")).toEqual([]);
  });

  it("a run carries the policy file's warning (its diagnostics list it with the skills')", () => {
    const dir = repo(
      "agent:\n  adapter: claude-code\n  model: claude-sonnet-4-5\njudge:\n  adapter: anthropic\n  model: claude-sonnet-4-5\n",
    );
    const { policy } = resolvePolicy(dir, undefined, undefined);
    expect(policy.warnings?.map((d) => `${d.file}:${d.line} ${d.code}`)).toEqual([
      ".skillgate.yml:6 config/judge-is-agent",
    ]);
  });

  it("validate shows it, and exits 0 (a warning)", async () => {
    const dir = repo(
      "agent:\n  adapter: claude-code\n  model: claude-sonnet-4-5\njudge:\n  adapter: anthropic\n  model: claude-sonnet-4-5\n",
    );
    mkdirSync(join(dir, "skills/a"), { recursive: true });
    writeFileSync(
      join(dir, "skills/a/SKILL.md"),
      "---\nname: a\ndescription: Does a. Use for a.\n---\nSteps.\n",
    );
    const r = await runCli(["validate", "--repo", dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toMatch(/\.skillgate\.yml:6:3: warning: .*judge/);
  });
});
