import { execa } from "execa";
import { beforeAll, describe, expect, it } from "vitest";
import { assertionLookup } from "../../src/detect/assertion-types.js";
import { discoverRepository } from "../../src/detect/discover.js";
import "../../src/grade/assertions/index.js";
import * as registry from "../../src/grade/assertions/registry.js";
import type { Diagnostic } from "../../src/model/index.js";
import { claudeCodeListing, listedIn } from "../support/claude-listing.js";
import { e2eFile } from "../support/dist.js";
import { writeRepo } from "../support/repo-files.js";

const { cliJs, scratch } = e2eFile();

/** Each skill's frontmatter lines; the body's first paragraph is `Body paragraph of <dir>.` */
const SKILLS: Record<string, string> = {
  "empty-metadata":
    "name: empty-metadata\ndescription: Files expense reports. Marker-A.\nmetadata: \nshort-description: Expense filing",
  "empty-tools": "name: empty-tools\ndescription: Sorts inbox mail. Marker-B.\nallowed-tools: ",
  "hash-description": "name: hash-description\ndescription: # Geology Field Notes",
  "list-compat":
    "name: list-compat\ndescription: Plans sprints. Marker-D.\ncompatibility: [claude-code, cursor]",
  "twice-described":
    "name: twice-described\ndescription: Earlier words Marker-E1.\nlicense: MIT\ndescription: Later words Marker-E2.",
  "twice-metadata":
    "name: twice-metadata\ndescription: Tracks habits. Marker-F.\nmetadata:\n  owner: a\nmetadata:\n  owner: b",
  "tool-mapping":
    "name: tool-mapping\ndescription: Reads tickets. Marker-G.\nallowed-tools:\n- WebFetch(domain: tickets.example)",
  "blank-description": 'name: blank-description\ndescription: ""',
  "listed-description": "name: listed-description\ndescription:\n  - Marker-I1\n  - Marker-I2",
  "number-tools": "name: number-tools\ndescription: Counts stock. Marker-J.\nallowed-tools: 3",
  "list-license": "name: list-license\ndescription: Signs releases. Marker-K.\nlicense: [MIT, Apache-2.0]",
  "number-metadata": "name: number-metadata\ndescription: Books rooms. Marker-L.\nmetadata: 5",
  "mapping-compat": "name: mapping-compat\ndescription: Drafts memos. Marker-M.\ncompatibility: {os: linux}",
  // A name YAML reads as a number (tomevault-io/skills-registry has one): listed under its folder's name.
  "number-name": "name: 933133\ndescription: Numbers tickets. Marker-Q.",
  // A key twice in a nested mapping, after a character of two UTF-16 units (yaml's offsets count units).
  "nested-twice":
    'name: nested-twice\ndescription: Maps genomes. Marker-N.\nmetadata:\n  tool:\n    emoji: "🧬"\n    os: [linux]\n    os: [linux, darwin]',
};
/** Frontmatters Claude Code drops (its quoting does not apply): real errors, which stay errors. */
const DROPPED: Record<string, string> = {
  "dash-description": "name: dash-description\ndescription: - Writing release notes Marker-O.",
  "wrapped-colon":
    "name: wrapped-colon\ndescription: Restores minified code.\n  TRIGGER when: the user pastes obfuscated code. Marker-P.",
};
const files = Object.fromEntries(
  Object.entries({ ...SKILLS, ...DROPPED }).map(([dir, fm]) => [
    `.claude/skills/${dir}/SKILL.md`,
    `---\n${fm}\n---\n\nBody paragraph of ${dir}.\n\nSteps.\n`,
  ]),
);

let repo: string;
let listing = "";

beforeAll(async () => {
  repo = writeRepo(files, "sg-fm-values-");
  scratch.push(repo);
  listing = await claudeCodeListing(repo);
}, 120_000);

const listed = (dir: string) => listedIn(listing, dir);

async function validate(...flags: string[]): Promise<{ code: number; diagnostics: Diagnostic[] }> {
  const r = await execa(process.execPath, [cliJs(), "validate", "--repo", repo, "--json", ...flags], {
    reject: false,
  });
  return { code: r.exitCode ?? -1, diagnostics: JSON.parse(r.stdout).diagnostics };
}
const at = (ds: Diagnostic[], severity: string) =>
  ds
    .filter((d) => d.severity === severity && d.file.endsWith("SKILL.md"))
    .map((d) => `${d.file.split("/")[2]}:${d.line} ${d.code}`)
    .sort();

describe("frontmatter values outside the spec's types, in skills Claude Code loads", () => {
  it("Claude Code lists every one of them, the body's paragraph standing for a description it cannot read", () => {
    expect(listing).toContain("available for use with the Skill tool");
    expect(listed("empty-metadata")).toBe("Files expense reports. Marker-A.");
    expect(listed("empty-tools")).toBe("Sorts inbox mail. Marker-B.");
    expect(listed("hash-description")).toBe("Body paragraph of hash-description.");
    expect(listed("list-compat")).toBe("Plans sprints. Marker-D.");
    expect(listed("twice-described")).toBe("Later words Marker-E2.");
    expect(listed("twice-metadata")).toBe("Tracks habits. Marker-F.");
    expect(listed("tool-mapping")).toBe("Reads tickets. Marker-G.");
    expect(listed("blank-description")).toBe("Body paragraph of blank-description.");
    expect(listed("listed-description")).toBe("Body paragraph of listed-description.");
    expect(listed("number-tools")).toBe("Counts stock. Marker-J.");
    expect(listed("list-license")).toBe("Signs releases. Marker-K.");
    expect(listed("number-metadata")).toBe("Books rooms. Marker-L.");
    expect(listed("mapping-compat")).toBe("Drafts memos. Marker-M.");
    expect(listed("nested-twice")).toBe("Maps genomes. Marker-N.");
    expect(listed("number-name")).toBe("Numbers tickets. Marker-Q.");
    expect(listing).not.toContain("Marker-O");
    expect(listing).not.toContain("Marker-P");
  });

  it("validate (bundled CLI, default target) warns at each line, and errs only where Claude Code drops the frontmatter", async () => {
    const v = await validate();
    expect(at(v.diagnostics, "error").filter((e) => !/^(dash-description|wrapped-colon):/.test(e))).toEqual(
      [],
    );
    expect(at(v.diagnostics, "error")).toEqual(
      expect.arrayContaining([
        "dash-description:3 skill/frontmatter-yaml",
        "wrapped-colon:3 skill/frontmatter-yaml",
      ]),
    );
    const warned = at(v.diagnostics, "warning");
    for (const w of [
      "empty-metadata:4 skill/frontmatter-value",
      "empty-tools:4 skill/frontmatter-value",
      "hash-description:3 skill/frontmatter-value",
      "list-compat:4 skill/frontmatter-value",
      "twice-described:5 skill/frontmatter-duplicate-key",
      "twice-metadata:6 skill/frontmatter-duplicate-key",
      "tool-mapping:5 skill/frontmatter-value",
      "blank-description:3 skill/frontmatter-value",
      "listed-description:4 skill/frontmatter-value",
      "number-tools:4 skill/frontmatter-value",
      "list-license:4 skill/frontmatter-value",
      "number-metadata:4 skill/frontmatter-value",
      "mapping-compat:4 skill/frontmatter-value",
      "nested-twice:8 skill/frontmatter-duplicate-key",
      "number-name:2 skill/frontmatter-value",
    ])
      expect(warned).toContain(w);
  }, 120_000);

  it("the description gated is the one Claude Code lists (a second `description:` wins, as there)", () => {
    const found = discoverRepository(repo, {
      profile: "claude-code",
      assertionTypes: assertionLookup(registry),
      env: {},
    });
    const byName = new Map(found.skills.map((s) => [s.name, s.description]));
    for (const dir of Object.keys(SKILLS)) expect(byName.get(dir), dir).toBe(listed(dir));
  });

  it("--profile strict keeps the spec's errors", async () => {
    const v = await validate("--profile", "strict");
    const errs = at(v.diagnostics, "error");
    for (const dir of Object.keys(SKILLS))
      expect(
        errs.some((e) => e.startsWith(`${dir}:`)),
        dir,
      ).toBe(true);
    expect(v.code).toBe(2);
  }, 120_000);
});
