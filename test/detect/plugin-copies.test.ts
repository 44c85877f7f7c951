/**
 * Issue #43, item 2 ("0 false errors", "discovery does not depend on folder order"), measured on a public
 * repository that mirrors several marketplaces: two marketplaces each hold a plugin of one name with the same
 * skills. A user installs each plugin from its own marketplace, so no agent loads both: they are copies, each
 * gated as a skill of its own, not a name clash (which was an error on whichever folder sorted second). Two skills
 * of one name inside one plugin folder still clash. Through the bundled CLI; our own text, in the mirror's shape.
 */
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/model/index.js";
import { e2eFile } from "../support/dist.js";
import { writeRepo } from "../support/repo-files.js";

const { cliJs, scratch } = e2eFile();

const skill = (name: string, what: string) =>
  `---\nname: ${name}\ndescription: ${what} Use when the user asks to ${what.toLowerCase()}\n---\nSteps.\n`;
const marketplace = (name: string) =>
  JSON.stringify({
    name,
    owner: { name: "someone" },
    plugins: [{ name: "toolkit", source: "./plugins/toolkit" }],
  });

/** Two mirrored marketplaces under `mirrors/<first>` and `mirrors/<second>`, each with plugin `toolkit`. */
function mirrors(first: string, second: string): Record<string, string> {
  const one = (m: string, what: string): Record<string, string> => ({
    [`mirrors/${m}/.claude-plugin/marketplace.json`]: marketplace(m),
    [`mirrors/${m}/plugins/toolkit/.claude-plugin/plugin.json`]: JSON.stringify({ name: "toolkit" }),
    [`mirrors/${m}/plugins/toolkit/skills/lint-docs/SKILL.md`]: skill("lint-docs", what),
  });
  return { ...one(first, "Lints Markdown docs."), ...one(second, "Checks doc links.") };
}

async function validate(files: Record<string, string>) {
  const dir = writeRepo(files, "sg-plugin-copies-");
  scratch.push(dir);
  const r = await execa(process.execPath, [cliJs(), "validate", "--repo", dir, "--json"], { reject: false });
  const v = JSON.parse(r.stdout) as { skills: { name: string }[]; diagnostics: Diagnostic[] };
  return { code: r.exitCode, names: v.skills.map((s) => s.name).sort(), diagnostics: v.diagnostics };
}
const codes = (ds: Diagnostic[], severity: string) =>
  ds.filter((d) => d.severity === severity).map((d) => `${d.file} ${d.code}`);

describe("plugins of one name in two marketplaces are copies, not a clash", () => {
  it("both are gated, whatever order their folders sort in", async () => {
    for (const [a, b] of [
      ["acme-plugins", "acme-plugins-official"],
      ["zeta-plugins", "acme-plugins"],
    ] as const) {
      const v = await validate(mirrors(a, b));
      expect(codes(v.diagnostics, "error")).toEqual([]);
      expect(v.code).toBe(0);
      expect(v.names).toEqual(
        [a, b].map((m) => `toolkit:lint-docs@mirrors/${m}/plugins/toolkit/skills/lint-docs`).sort(),
      );
      // The copy later in path order gets the notice naming the other.
      expect(codes(v.diagnostics, "notice").filter((c) => c.endsWith("skill/duplicate-copy"))).toHaveLength(
        1,
      );
    }
  }, 120_000);

  it("two skills of one name in one plugin folder still clash", async () => {
    const v = await validate({
      ...mirrors("acme-plugins", "acme-plugins-official"),
      "mirrors/acme-plugins/plugins/toolkit/skills/lint-docs-v2/SKILL.md": skill(
        "lint-docs",
        "Lints docs again.",
      ),
    });
    expect(codes(v.diagnostics, "warning")).toContain(
      "mirrors/acme-plugins/plugins/toolkit/skills/lint-docs-v2/SKILL.md skill/duplicate-name",
    );
  }, 120_000);
});
