/**
 * Issue #28: `.claude-plugin/marketplace.json` honoured as Claude Code reads it. The fixture under
 * test/fixtures/day-one/marketplace is shaped like public marketplaces (entries sharing `source: "./"` with
 * `strict: false` and their own `skills` lists, `./plugins/<p>` entries with a plugin.json, a bare name under
 * `metadata.pluginRoot`, a remote `github` source, an entry whose folder is gone, one that leaves the repository).
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { assertionLookup } from "../../src/detect/assertion-types.js";
import { discoverRepository } from "../../src/detect/discover.js";
import { readMarketplace } from "../../src/detect/marketplace.js";
import "../../src/grade/assertions/index.js";
import * as registry from "../../src/grade/assertions/registry.js";
import type { Diagnostic } from "../../src/model/index.js";
import { writeRepo } from "../support/repo-files.js";
import { runCli } from "../support/run-cli.js";

const FIXTURE = join(import.meta.dirname, "../fixtures/day-one/marketplace");
const MARKETPLACE = ".claude-plugin/marketplace.json";
const opts = { profile: "claude-code" as const, assertionTypes: assertionLookup(registry), env: {} };

const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});
function repo(files: Record<string, string>, from?: string): string {
  const dir = writeRepo(files, "sg-marketplace-", from);
  scratch.push(dir);
  return dir;
}
const skillMd = (name: string) =>
  `---\nname: ${name}\ndescription: Does ${name} work. Use for ${name} tasks.\n---\nSteps.\n`;
const located = (ds: readonly Diagnostic[]) =>
  ds.map((d) => `${d.severity} ${d.file}:${d.line} ${d.code}`).sort();

describe("marketplace.json", () => {
  it("names each listed plugin's skills as Claude Code does, from its source, skills paths and pluginRoot", () => {
    const d = discoverRepository(FIXTURE, opts);
    expect(d.skills.map((s) => `${s.name} ${s.path}`).sort()).toEqual([
      "audit:scan plugins/audit/skills/scan/SKILL.md", // default skills/ of a strict entry
      "audit:triage plugins/audit/extra/triage/SKILL.md", // plugin.json's "skills": "./extra/" (strict: read)
      "examples:poster skills/poster/SKILL.md", // the entry that lists it by its folder names it
      "notes:jot plugins/notes/skills/jot/SKILL.md", // bare `notes` under metadata.pluginRoot
      "notes:outline plugins/notes/guides/outline/SKILL.md", // the entry's own skills path
      "office:sheets skills/sheets/SKILL.md",
      "office:slides skills/slides/SKILL.md",
      "ops:deploy plugins/operations/skills/deploy/SKILL.md", // named by the entry, not by its folder
      "ops:restart plugins/operations/runbooks/restart/SKILL.md",
    ]);
    expect(d.skills.every((s) => s.layout === "plugin")).toBe(true);
  });

  it("a remote source is a located notice; a missing folder or one outside the repository a located warning", () => {
    const d = discoverRepository(FIXTURE, opts);
    const mk = d.diagnostics.filter((x) => x.file === MARKETPLACE);
    expect(located(mk)).toEqual([
      `notice ${MARKETPLACE}:48 marketplace/remote-source`,
      `warning ${MARKETPLACE}:53 marketplace/source-missing`,
      `warning ${MARKETPLACE}:58 marketplace/source-outside`,
    ]);
    expect(mk[0]!.message).toContain("`github` source");
    expect(d.diagnostics.filter((x) => x.severity === "error")).toEqual([]);
  });

  it("a skill folder several plugins load (entries sharing source ./) is gated once, with a notice", () => {
    const d = discoverRepository(FIXTURE, opts);
    const several = d.diagnostics.filter((x) => x.code === "skill/in-several-plugins");
    expect(located(several)).toEqual([
      "notice skills/poster/SKILL.md:1 skill/in-several-plugins",
      "notice skills/sheets/SKILL.md:1 skill/in-several-plugins",
      "notice skills/slides/SKILL.md:1 skill/in-several-plugins",
    ]);
    expect(several.find((x) => x.file === "skills/sheets/SKILL.md")!.message).toContain("plugins examples");
  });

  it("validate: warnings and notices only, exit 0; --json lists the plugin skills", async () => {
    const r = await runCli(["validate", "--repo", repo({}, FIXTURE), "--json"]);
    const v = JSON.parse(r.stdout);
    expect(r.code, r.stdout).toBe(0);
    expect(v.errors).toBe(0);
    expect(v.skills.map((s: { name: string }) => s.name)).toContain("notes:outline");
  });

  it("a nested marketplace resolves ./ from its own folder; an unparseable one is a warning and blocks nothing", () => {
    const dir = repo({
      "tools/.claude-plugin/marketplace.json": JSON.stringify({
        name: "tools",
        owner: { name: "t" },
        plugins: [{ name: "kit", source: "./kit" }],
      }),
      "tools/kit/skills/lint/SKILL.md": skillMd("lint"),
      ".claude-plugin/marketplace.json": '{ "name": "broken", "plugins": [ ',
      "skills/plain/SKILL.md": skillMd("plain"),
    });
    const d = discoverRepository(dir, opts);
    expect(d.skills.map((s) => s.name).sort()).toEqual(["kit:lint", "plain"]);
    expect(located(d.diagnostics.filter((x) => x.file.endsWith("marketplace.json")))).toEqual([
      `warning ${MARKETPLACE}:1 marketplace/unparseable`,
    ]);
  });

  it("a base whose marketplace changed is read in full (its skills move between namespaces)", () => {
    const head = repo({}, FIXTURE);
    const base = repo({}, FIXTURE);
    const listing = join(base, MARKETPLACE);
    writeFileSync(listing, JSON.stringify({ name: "acme", owner: { name: "a" }, plugins: [] }));
    const h = discoverRepository(head, opts);
    const b = discoverRepository(base, { ...opts, reuse: { from: h, changedFiles: [MARKETPLACE] } });
    expect(b.skills.map((s) => s.name)).toContain("sheets");
    expect(b.skills.map((s) => s.name)).not.toContain("office:sheets");
  });
});

describe("readMarketplace", () => {
  const isDir = (dirs: string[]) => (rel: string) => dirs.includes(rel);

  it("string and object sources, pluginRoot for bare names only, skills as one path or a list", () => {
    const text = JSON.stringify(
      {
        name: "m",
        metadata: { pluginRoot: "./plugins" },
        plugins: [
          { name: "a", source: "./plugins/a", skills: "./more" },
          { name: "b", source: "b", strict: false, skills: ["./x", "./y"] },
          { name: "c", source: "./c" }, // ./ ignores pluginRoot
          { name: "d", source: { source: "git-subdir", url: "https://example.com/r.git", path: "d" } },
          { name: "e", source: "e" }, // bare, but plugins/e is not there
          { name: "f", source: "./plugins/a", skills: ["../../../up"] },
          { source: "./plugins/a" }, // no name
        ],
      },
      null,
      2,
    );
    const m = readMarketplace(
      MARKETPLACE,
      text,
      isDir(["plugins/a", "plugins/a/more", "plugins/b", "plugins/b/x", "plugins/b/y", "c"]),
    );
    expect(m.plugins).toEqual([
      { name: "a", dir: "plugins/a", strict: true, skills: ["plugins/a/more"] },
      { name: "b", dir: "plugins/b", strict: false, skills: ["plugins/b/x", "plugins/b/y"] },
      { name: "c", dir: "c", strict: true },
      { name: "f", dir: "plugins/a", strict: true, skills: [] },
    ]);
    expect(m.diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual([
      "notice marketplace/remote-source",
      "warning marketplace/source-missing",
      "warning marketplace/source-outside",
      "warning marketplace/invalid",
    ]);
  });

  it("a bare name without pluginRoot, a URL, and an absolute path are warnings, never errors", () => {
    const text = JSON.stringify({
      plugins: [
        { name: "a", source: "a" },
        { name: "b", source: "https://example.com/b.git" },
        { name: "c", source: "/opt/c" },
      ],
    });
    const m = readMarketplace(MARKETPLACE, text, () => true);
    expect(m.plugins).toEqual([]);
    expect(m.diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual([
      "warning marketplace/source-invalid",
      "warning marketplace/source-outside",
      "warning marketplace/source-outside",
    ]);
  });
});
