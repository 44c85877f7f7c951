/**
 * "Never report an error for a file its own tool accepts": SKILL.md frontmatters that are not valid YAML, or whose
 * name breaks the spec's rule, held against what the real Claude Code CLI lists (against a scripted model on
 * loopback). Where Claude Code loads the skill with the description as written, `validate` (claude-code profile)
 * warns; where Claude Code drops the frontmatter, it is an error; `--profile strict` keeps the spec's errors.
 */

import { beforeAll, describe, expect, it } from "vitest";
import { assertionLookup } from "../../src/detect/assertion-types.js";
import { discoverRepository } from "../../src/detect/discover.js";
import "../../src/grade/assertions/index.js";
import * as registry from "../../src/grade/assertions/registry.js";
import { claudeCodeListing, listedIn } from "../support/claude-listing.js";
import { writeRepo } from "../support/repo-files.js";
import { runCli } from "../support/run-cli.js";

/** Each skill: its frontmatter lines, as people write them (found in public catalogues; our own words). */
const SKILLS: Record<string, string> = {
  // `: ` inside a plain value: YAML reads a nested mapping and fails; Claude Code quotes the value.
  "colon-inside":
    "name: colon-inside\ndescription: Tidies CSV exports: headers, encodings and stray quotes. Marker-A.",
  // A value starting with `|` on the key's line (a block scalar header followed by text).
  "pipe-start": "name: pipe-start\ndescription: | Use when rotating log files. Marker-B.",
  // Spaces and capitals in `name`: listed by its folder's name.
  "cap-name": "name: Cap Name Tool\ndescription: Formats invoices for printing. Marker-C.",
  // A name over the spec's 64 characters: listed by its folder's name, the long name an alias.
  "long-name": `name: ${"very-long-".repeat(7)}name\ndescription: Archives old tickets. Marker-D.`,
  // Two skills of one name in one skills folder: Claude Code loads both, by their folders' names.
  "dup-first": "name: shared-name\ndescription: Renames photos by date. Marker-E.",
  "dup-second": "name: shared-name\ndescription: Resizes photos for the web. Marker-F.",
  // Ends in `:` with no value after it: no quoting applies, and Claude Code drops the whole frontmatter.
  "dropped-frontmatter":
    "name: dropped-frontmatter\ndescription: Use when comparing both:\nmetadata:\n  author: someone",
};

/**
 * Whole files whose frontmatter Claude Code and the spec's line reading split differently (issue #39): Claude Code
 * matches `^---\s*\n([\s\S]*?)---` on the text, so a `...` close or a leading space drops the frontmatter, and a
 * `---` inside a value ends it there. Each is an error on the line where the readings part.
 */
const DIVERGENT: Record<string, string> = {
  "dots-close": "---\nname: dots-close\ndescription: Balances ledgers. Marker-G.\n...\n\n# Heading-G\n",
  "space-open": " ---\nname: space-open\ndescription: Rotates keys. Marker-H.\n---\n\n# Heading-H\n",
  "dash-inside": "---\nname: dash-inside\ndescription: Merges PDFs --- Marker-I.\n---\n\n# Heading-I\n",
};

let repo: string;
let listing = "";

beforeAll(async () => {
  repo = writeRepo({
    ...Object.fromEntries(
      Object.entries(SKILLS).map(([dir, fm]) => [
        `.claude/skills/${dir}/SKILL.md`,
        `---\n${fm}\n---\n\n# Body heading Marker-Body\n\nSteps.\n`,
      ]),
    ),
    ...Object.fromEntries(Object.entries(DIVERGENT).map(([dir, t]) => [`.claude/skills/${dir}/SKILL.md`, t])),
  });
  listing = await claudeCodeListing(repo);
}, 120_000);

const listed = (dir: string) => listedIn(listing, dir);

describe("frontmatter as Claude Code reads it", () => {
  it("Claude Code lists the quoted readings and folder names, and drops what it cannot read", () => {
    expect(listing).toContain("available for use with the Skill tool");
    expect(listed("colon-inside")).toBe("Tidies CSV exports: headers, encodings and stray quotes. Marker-A.");
    expect(listed("pipe-start")).toBe("| Use when rotating log files. Marker-B.");
    expect(listed("cap-name")).toBe("Formats invoices for printing. Marker-C.");
    expect(listed("long-name")).toBe("Archives old tickets. Marker-D.");
    expect(listed("dup-first")).toBe("Renames photos by date. Marker-E.");
    expect(listed("dup-second")).toBe("Resizes photos for the web. Marker-F.");
    expect(listed("dropped-frontmatter")).not.toContain("comparing both");
    // issue #39: a `...` close and a leading space drop the frontmatter; a `---` in a value ends it there
    expect(listed("dots-close")).toBe("---");
    expect(listed("space-open")).toBe("---");
    expect(listed("dash-inside")).toBe("Merges PDFs");
  });

  it("validate errs on the line where the spec's reading and Claude Code's part", async () => {
    const r = await runCli(["validate", "--repo", repo, "--json"]);
    const d = JSON.parse(r.stdout) as { diagnostics: { file: string; line: number; code: string }[] };
    const at = (dir: string) =>
      d.diagnostics
        .filter((x) => x.file === `.claude/skills/${dir}/SKILL.md` && x.code === "skill/frontmatter-harness")
        .map((x) => x.line);
    expect(at("dots-close")).toEqual([4]);
    expect(at("space-open")).toEqual([1]);
    expect(at("dash-inside")).toEqual([3]);
  });

  it("validate warns where Claude Code loads the skill as written, errs where it drops it, and strict errs", async () => {
    const r = await runCli(["validate", "--repo", repo, "--json"]);
    const d = JSON.parse(r.stdout) as {
      diagnostics: { file: string; line: number; severity: string; code: string }[];
      skills: { name: string; description: string }[];
    };
    const at = (dir: string) =>
      d.diagnostics
        .filter(
          (x) =>
            x.file === `.claude/skills/${dir}/SKILL.md` &&
            [
              "skill/frontmatter-yaml",
              "skill/name-pattern",
              "skill/name-length",
              "skill/duplicate-name",
            ].includes(x.code),
        )
        .map((x) => `${x.line} ${x.severity} ${x.code}`);
    expect(at("colon-inside")).toEqual(["3 warning skill/frontmatter-yaml"]);
    expect(at("pipe-start")).toEqual(["3 warning skill/frontmatter-yaml"]);
    expect(at("cap-name")).toEqual(["2 warning skill/name-pattern"]);
    expect(at("long-name")).toEqual(["2 warning skill/name-length"]);
    expect(at("dup-first")).toEqual([]);
    expect(at("dup-second")).toEqual(["2 warning skill/duplicate-name"]);
    expect(at("dropped-frontmatter")).toEqual(["3 error skill/frontmatter-yaml"]);
    // The descriptions skillgate gates are the ones Claude Code lists; the skill is named by its folder.
    const found = discoverRepository(repo, {
      profile: "claude-code",
      assertionTypes: assertionLookup(registry),
      env: {},
    });
    const byName = new Map(found.skills.map((s) => [s.name, s.description]));
    for (const dir of ["colon-inside", "pipe-start", "cap-name", "long-name", "dup-second"])
      expect(byName.get(dir)).toBe(listed(dir));
    expect(byName.get("shared-name")).toBe(listed("dup-first"));
    expect(r.code).toBe(2);
    const strict = await runCli(["validate", "--repo", repo, "--profile", "strict"]);
    expect(strict.stdout).toMatch(/colon-inside\/SKILL\.md:3:\d+: error: invalid YAML/);
    expect(strict.stdout).toMatch(/pipe-start\/SKILL\.md:3:\d+: error: invalid YAML/);
    expect(strict.stdout).toMatch(/cap-name\/SKILL\.md:2:7: error: name `Cap Name Tool` must be lowercase/);
    expect(strict.stdout).toMatch(
      /dup-second\/SKILL\.md:2:7: error: skill name `shared-name` is also used by/,
    );
  });
});
