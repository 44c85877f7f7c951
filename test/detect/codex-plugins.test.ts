/**
 * Issue #43, "Targets": Codex plugins read as Codex reads them (openai/codex `core-plugins`: manifest.rs,
 * marketplace.rs, and the plugin namespace of a skill path). A plugin is a folder with `.codex-plugin/plugin.json`;
 * its skills are in `skills/` and in the manifest's `skills` path (`./`-relative, inside the plugin), named
 * `<manifest name>:<skill>`; `.agents/plugins/marketplace.json` lists plugins by `./` paths from the folder holding
 * `.agents/`. The fixture (test/fixtures/targets/codex-plugin) is in that layout, with text written for these tests.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { baseNeeds } from "../../src/detect/base-needs.js";
import { reusable } from "../../src/detect/base-reuse.js";
import type { Discovery } from "../../src/detect/discover.js";
import type { Diagnostic } from "../../src/model/index.js";
import { writeRepo } from "../support/repo-files.js";
import { runCli } from "../support/run-cli.js";

const FIXTURE = join(import.meta.dirname, "../fixtures/targets/codex-plugin");
const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

interface Validation {
  errors: number;
  skills: { name: string; path: string; layout: string }[];
  diagnostics: Diagnostic[];
}
async function validate(files: Record<string, string> = {}): Promise<Validation> {
  const dir = writeRepo({ ".skillgate.yml": "targets: [codex]\n", ...files }, "sg-codex-plugin-", FIXTURE);
  scratch.push(dir);
  return JSON.parse((await runCli(["validate", "--repo", dir, "--json"])).stdout) as Validation;
}
const named = (v: Validation) => v.skills.map((s) => `${s.name} ${s.path}`).sort();
const skillMd = (name: string) =>
  `---\nname: ${name}\ndescription: Handles ${name} for the shop. Use for ${name} requests.\n---\n\nSteps.\n`;

describe("Codex plugins", () => {
  it("a plugin's skills are named by its plugin.json `name`, from skills/ and from its `skills` path", async () => {
    const v = await validate({ "plugins/ops-kit/skills/count/SKILL.md": skillMd("count") });
    expect(named(v)).toEqual([
      "ops:count plugins/ops-kit/skills/count/SKILL.md",
      "ops:restock plugins/ops-kit/codex-skills/restock/SKILL.md",
      "storefront-tools:price-check plugins/storefront-tools/skills/price-check/SKILL.md",
    ]);
    expect(v.skills.every((s) => s.layout === "plugin")).toBe(true);
    expect(v.errors).toBe(0);
  });

  it("a plugin at the repository root names the skills of its skills/ folder", async () => {
    const v = await validate({
      ".codex-plugin/plugin.json": '{ "name": "shop-suite", "skills": "./skills/" }\n',
      "skills/gift-wrap/SKILL.md": skillMd("gift-wrap"),
    });
    expect(named(v)).toContain("shop-suite:gift-wrap skills/gift-wrap/SKILL.md");
    // A nested plugin's skills stay its own.
    expect(named(v)).toContain("ops:restock plugins/ops-kit/codex-skills/restock/SKILL.md");
  });

  it("a `skills` path Codex ignores (not `./`-relative, or leaving the plugin) names no skill of the plugin", async () => {
    const v = await validate({
      "plugins/labels/.codex-plugin/plugin.json": '{ "name": "labels", "skills": "extra/" }\n',
      "plugins/labels/extra/print/SKILL.md": skillMd("print"),
      "plugins/tags/.codex-plugin/plugin.json": '{ "name": "tags", "skills": "./../labels/extra" }\n',
    });
    expect(named(v)).toContain("print plugins/labels/extra/print/SKILL.md");
    expect(named(v).some((s) => s.startsWith("labels:") || s.startsWith("tags:"))).toBe(false);
  });

  it("an empty `name` names the plugin by its folder, as Codex does", async () => {
    const v = await validate({
      "plugins/ops-kit/.codex-plugin/plugin.json": '{ "name": "", "skills": "./codex-skills/" }\n',
    });
    expect(named(v)).toContain("ops-kit:restock plugins/ops-kit/codex-skills/restock/SKILL.md");
  });

  it("marketplace: a remote source is a notice and a source Codex refuses a warning, each at its entry", async () => {
    const v = await validate({
      "plugins/gone/.keep": "",
    });
    const at = (code: string) =>
      v.diagnostics.filter((d) => d.code === code).map((d) => `${d.severity} ${d.file}:${d.line}`);
    expect(at("marketplace/remote-source")).toEqual(["notice .agents/plugins/marketplace.json:7"]);
    expect(at("marketplace/source-invalid")).toEqual(["warning .agents/plugins/marketplace.json:8"]);
  });

  it("marketplace: `./` lists the plugin at the marketplace root, as Codex does since 0.142", async () => {
    const marketplace = {
      name: "shop",
      plugins: [{ name: "shop-suite", source: { source: "local", path: "./" } }],
    };
    const v = await validate({
      ".agents/plugins/marketplace.json": `${JSON.stringify(marketplace, null, 2)}\n`,
      ".codex-plugin/plugin.json": '{ "name": "shop-suite" }\n',
      "skills/gift-wrap/SKILL.md": skillMd("gift-wrap"),
    });
    expect(v.diagnostics.filter((d) => d.code.startsWith("marketplace/"))).toEqual([]);
    expect(named(v)).toContain("shop-suite:gift-wrap skills/gift-wrap/SKILL.md");
  });

  it("marketplace: a listed folder that is not there is a warning at its entry", async () => {
    const marketplace = {
      name: "storefront",
      plugins: [{ name: "returns", source: { source: "local", path: "./plugins/returns" } }],
    };
    const v = await validate({
      ".agents/plugins/marketplace.json": `${JSON.stringify(marketplace, null, 2)}\n`,
    });
    const missing = v.diagnostics.filter((d) => d.code === "marketplace/source-missing");
    expect(missing.map((d) => `${d.file}:${d.line}`)).toEqual([".agents/plugins/marketplace.json:6"]);
    expect(missing[0]!.message).toMatch(/Codex's install would fail/);
  });
});

describe("a PR editing a Codex plugin manifest or marketplace", () => {
  const head = { skills: [] } as unknown as Discovery;
  it.each([
    "plugins/ops-kit/.codex-plugin/plugin.json",
    ".codex-plugin/plugin.json",
    ".agents/plugins/marketplace.json",
  ])("%s: the base is read in full (a renamed plugin moves its skills to another namespace)", (file) => {
    expect(baseNeeds(head, [file], [])).toEqual({ full: `the PR changes ${file}` });
    expect(reusable({ from: head, changedFiles: [file] }, "/nonexistent")).toBeUndefined();
  });
});
