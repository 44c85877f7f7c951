/**
 * Issue #43, "Targets": `targets:` in the base config names the clients a repository writes skills for, and
 * `validate` applies each one's loading rules (docs/formats.md, "Targets"), located at file:line. What a named
 * target refuses is an error; what it does not list, or a folder no target reads, a warning; a rule of a client
 * that is not a target is never an error ("never report an error for a file its own tool accepts").
 * The fixture repositories (test/fixtures/targets/) are in each target's layout, with text written for these tests.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/model/index.js";
import { resolveTargets } from "../../src/settings/targets.js";
import { writeRepo } from "../support/repo-files.js";
import { runCli } from "../support/run-cli.js";

const FIXTURES = join(import.meta.dirname, "../fixtures/targets");
const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

/** A copy of a fixture repository with `config` as its .skillgate.yml (and `files` added). */
function repo(fixture: string, config: string, files: Record<string, string> = {}): string {
  const dir = writeRepo({ ".skillgate.yml": config, ...files }, "sg-targets-", join(FIXTURES, fixture));
  scratch.push(dir);
  return dir;
}

interface Validation {
  code: number;
  targets: string[];
  errors: number;
  diagnostics: Diagnostic[];
}
async function validate(dir: string): Promise<Validation> {
  const r = await runCli(["validate", "--repo", dir, "--json"]);
  return { ...JSON.parse(r.stdout), code: r.code };
}
const located = (v: Validation, code: string) =>
  v.diagnostics.filter((d) => d.code === code).map((d) => `${d.severity} ${d.file}:${d.line}`);
const targetCodes = (v: Validation) => v.diagnostics.filter((d) => d.code.startsWith("target/"));

describe("targets: in the config", () => {
  it("defaults to the configured agent's harness, Claude Code when the agent runs none", () => {
    expect(resolveTargets({})).toEqual(["claude-code"]);
    expect(resolveTargets({ agent: { adapter: "codex" } })).toEqual(["codex"]);
    expect(resolveTargets({ agent: { adapter: "command", command: "node a.js" } })).toEqual(["claude-code"]);
    expect(
      resolveTargets({
        agents: [
          { name: "cc", adapter: "claude-code" },
          { name: "cx", adapter: "codex" },
        ],
      }),
    ).toEqual(["claude-code", "codex"]);
    expect(resolveTargets({ agent: { adapter: "codex" }, targets: ["gh-skill"] })).toEqual(["gh-skill"]);
  });

  it("is checked against its schema: an unknown target is an error at its line", async () => {
    const v = await validate(repo("copilot", "targets: [copilot, cursor]\n"));
    expect(v.code).toBe(2);
    expect(v.diagnostics.find((d) => d.severity === "error")).toMatchObject({
      file: ".skillgate.yml",
      line: 1,
    });
  });

  it("validate says which targets it checked", async () => {
    const v = await validate(repo("gemini", "agent: {adapter: codex}\n"));
    expect(v.targets).toEqual(["codex"]);
  });
});

describe("allowed keys and value types per target", () => {
  it("claude-api: a key beyond the spec's six is an error at the key (the upload refuses it); under claude-code it is not", async () => {
    const v = await validate(repo("claude-api", "targets: [claude-api]\n"));
    expect(located(v, "target/upload-key")).toEqual([
      "error skills/brand-voice/SKILL.md:4",
      "error skills/brand-voice/SKILL.md:5",
    ]);
    // The profile's warnings at those keys are not said twice.
    expect(
      v.diagnostics.filter((d) => d.line === 4 && d.file === "skills/brand-voice/SKILL.md"),
    ).toHaveLength(1);
    const cc = await validate(repo("claude-api", "targets: [claude-code]\n"));
    expect(cc.errors).toBe(0);
    expect(targetCodes(cc)).toEqual([]);
  });

  it("gh-skill: a list-valued allowed-tools and a name outside the strict rule are errors; Claude Code accepts both", async () => {
    const v = await validate(repo("gh-skill", "targets: [gh-skill]\n"));
    expect(located(v, "target/gh-skill-allowed-tools")).toEqual(["error skills/changelog/SKILL.md:5"]);
    expect(located(v, "target/gh-skill-name")).toEqual(["error skills/Release_Helper/SKILL.md:2"]);
    expect(located(v, "skill/allowed-tools-list")).toEqual([]); // the error stands alone
    const cc = await validate(repo("gh-skill", "targets: [claude-code]\n"));
    expect(cc.errors).toBe(0);
    expect(located(cc, "skill/allowed-tools-list")).toEqual(["warning skills/changelog/SKILL.md:5"]);
  });

  it("gh-skill: name must equal its folder", async () => {
    const v = await validate(
      repo("gh-skill", "targets: [gh-skill]\n", {
        "skills/tagger/SKILL.md":
          "---\nname: release-tagger\ndescription: Tags releases. Use for tags.\n---\nTag.\n",
      }),
    );
    expect(located(v, "target/gh-skill-name-folder")).toEqual(["error skills/tagger/SKILL.md:2"]);
  });

  it("codex: a description over 1,024 characters and frontmatter only Claude Code's quoting reads are errors (Codex does not load them)", async () => {
    const v = await validate(repo("codex", "targets: [codex]\n"));
    expect(located(v, "target/codex-length")).toEqual(["error .agents/skills/slo-advisor/SKILL.md:3"]);
    expect(located(v, "target/codex-yaml")).toEqual(["error .agents/skills/cron-tips/SKILL.md:3"]);
    expect(located(v, "skill/frontmatter-yaml")).toEqual([]);
    const cc = await validate(repo("codex", "targets: [claude-code]\n"));
    expect(located(cc, "skill/frontmatter-yaml")).toEqual(["warning .agents/skills/cron-tips/SKILL.md:3"]);
    expect(cc.errors).toBe(0);
  });

  it("codex: a missing description is an error (Claude Code reads the body's first paragraph instead)", async () => {
    const v = await validate(
      repo("codex", "targets: [codex]\n", {
        ".agents/skills/bare/SKILL.md": "---\nname: bare\n---\nDoes bare things.\n",
      }),
    );
    expect(located(v, "target/codex-missing")).toEqual(["error .agents/skills/bare/SKILL.md:2"]);
  });
});

describe("Codex's agents/openai.yaml", () => {
  it("a file Codex cannot read is a warning at its line (Codex loads the skill without it); a valid one is nothing", async () => {
    const v = await validate(
      repo("codex", "targets: [codex]\n", {
        ".agents/skills/search-helper/agents/openai.yaml": "interface:\n  display_name: [Search\n",
      }),
    );
    expect(located(v, "target/codex-openai-yaml")).toEqual([
      "warning .agents/skills/search-helper/agents/openai.yaml:3",
    ]);
    const cc = await validate(
      repo("codex", "targets: [claude-code]\n", {
        ".agents/skills/search-helper/agents/openai.yaml": "interface:\n  display_name: [Search\n",
      }),
    );
    expect(located(cc, "target/codex-openai-yaml")).toEqual([]);
  });
});

describe("description listing limits", () => {
  it("claude-code: trigger words past 1,536 characters are a warning at the line where the cut falls", async () => {
    const v = await validate(repo("claude-code", "targets: [claude-code]\n"));
    const cuts = v.diagnostics.filter((d) => d.code === "target/listing-cut");
    expect(cuts.map((d) => `${d.severity} ${d.file}:${d.line}`)).toEqual([
      "warning .claude/skills/release-notes/SKILL.md:20",
      "warning .claude/skills/triage/SKILL.md:4",
    ]);
    expect(cuts[0]!.message).toContain('"Use when someone asks for release');
    expect(cuts[1]!.message).toContain('("sues or close duplicates of known …")');
    expect(v.errors).toBe(0);
  });

  it("codex: skills past the 8,000-character list are warnings at their description lines, in Codex's name order", async () => {
    const v = await validate(repo("codex", "targets: [codex]\n"));
    expect(located(v, "target/codex-catalogue")).toEqual([
      "warning .agents/skills/webhooks-helper/SKILL.md:3",
      "warning .agents/skills/wishlist-helper/SKILL.md:3",
      "warning .agents/skills/zones-helper/SKILL.md:3",
    ]);
    const cc = await validate(repo("codex", "targets: [claude-code]\n"));
    expect(located(cc, "target/codex-catalogue")).toEqual([]);
  });
});

describe("folders read per target", () => {
  it("codex does not read .claude/skills: a warning at the skill, never an error", async () => {
    const v = await validate(repo("codex", "targets: [codex]\n"));
    expect(located(v, "target/folder-not-read")).toEqual(["warning .claude/skills/legacy-deploy/SKILL.md:1"]);
    const both = await validate(repo("codex", "targets: [codex, claude-code]\n"));
    expect(located(both, "target/folder-not-read")).toEqual([]);
  });

  it("copilot reads .github/skills, .claude/skills and .agents/skills, not .gemini/skills", async () => {
    const v = await validate(repo("copilot", "targets: [copilot]\n"));
    expect(located(v, "target/folder-not-read")).toEqual(["warning .gemini/skills/gemini-only/SKILL.md:1"]);
  });

  it("gemini reads .gemini/skills and .agents/skills", async () => {
    const v = await validate(repo("gemini", "targets: [gemini]\n"));
    expect(targetCodes(v)).toEqual([]);
    const cc = await validate(repo("gemini", "targets: [claude-code]\n"));
    expect(located(cc, "target/folder-not-read").sort()).toEqual([
      "warning .agents/skills/lint-fix/SKILL.md:1",
      "warning .gemini/skills/api-check/SKILL.md:1",
    ]);
  });

  it("gh skill publish finds skills/*/, skills/<scope>/*/, */ and plugins/<scope>/skills/*/ only", async () => {
    const v = await validate(repo("gh-skill", "targets: [gh-skill]\n"));
    expect(located(v, "target/gh-skill-not-found")).toEqual(["warning tools/internal/scratch/SKILL.md:1"]);
  });

  it("a Codex plugin's and an Agent Plugin's skills/ are found, with no folder warning", async () => {
    for (const fixture of ["codex-plugin", "agent-plugin"]) {
      const v = await validate(repo(fixture, "targets: [codex, copilot]\n"));
      expect(v.errors).toBe(0);
      expect(targetCodes(v)).toEqual([]);
      expect(v.diagnostics.some((d) => d.file.endsWith("SKILL.md") && d.severity !== "notice")).toBe(false);
    }
  });
});
