/**
 * The isolation a run reached: whether it may go on (the Action needs the strongest level unless the base's config
 * accepts less; a local run warns), and how the JSON report, the terminal and the check summary say it.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { IsolationReport, Logger } from "../../src/model/index.js";
import { renderMarkdown } from "../../src/report/markdown.js";
import { mergeReports } from "../../src/report/merge.js";
import { renderTerminal } from "../../src/report/terminal.js";
import { decideIsolation, IsolationRefused } from "../../src/run/isolation.js";
import { resolveSettings } from "../../src/settings/resolve.js";
import { makeReport } from "../github/fixtures.js";

const weaker = { level: "namespaces", reason: "bubblewrap in an unprivileged user namespace" } as const;
const full = { level: "uid+namespaces", reason: "bubblewrap as root" } as const;
const quiet: Logger = {
  info() {},
  warn() {},
  error() {},
  debug() {},
  progress() {},
  group: async <T>(_: string, f: () => Promise<T>) => f(),
};

describe("decideIsolation", () => {
  it("the Action refuses a weaker level unless the trusted config accepts it, and says how to fix it", () => {
    const refused = decideIsolation(weaker, { isolation: { required: true, allowWeaker: false } });
    expect(refused.go).toBe(false);
    if (refused.go) return;
    expect(refused.refused).toBeInstanceOf(IsolationRefused);
    expect(refused.refused.message).toMatch(
      /reaches only "namespaces".*apt-get install bubblewrap.*sudo.*allowWeaker: true/,
    );
    expect(refused.refused.isolation).toMatchObject({ level: "namespaces", required: "uid+namespaces" });
    expect(decideIsolation(weaker, { isolation: { required: true, allowWeaker: true } })).toMatchObject({
      go: true,
      report: { level: "namespaces", weakerAccepted: "config" },
      warning: expect.stringMatching(/^WEAKER ISOLATION/),
    });
  });

  it("a local run goes on at any level, loudly when weaker; the strongest level needs no word", () => {
    expect(decideIsolation({ level: "none", reason: "no bubblewrap" }, {})).toMatchObject({
      go: true,
      report: { level: "none", weakerAccepted: "local run" },
      warning: expect.stringContaining('runs at "none"'),
    });
    const ok = decideIsolation(full, { isolation: { required: true, allowWeaker: false } });
    expect(ok).toEqual({ go: true, report: { ...full, required: "uid+namespaces" } });
  });
});

describe("allowWeaker comes from the trusted config only", () => {
  it("is read from the base's .skillgate.yml; the PR's own setting is a policy-weakened change", async () => {
    const repo = mkdtempSync(join(tmpdir(), "sg-iso-head-"));
    const base = mkdtempSync(join(tmpdir(), "sg-iso-base-"));
    for (const dir of [repo, base]) mkdirSync(join(dir, ".claude", "skills"), { recursive: true });
    writeFileSync(join(repo, ".skillgate.yml"), "isolation:\n  allowWeaker: true\n");
    const fromHead = await resolveSettings({ repo, baseDir: base }, quiet);
    expect(fromHead.isolation).toEqual({ required: false, allowWeaker: false });
    expect(fromHead.policy.changes).toEqual(
      expect.arrayContaining([expect.objectContaining({ key: "isolation", kind: "loosened", line: 1 })]),
    );
    writeFileSync(join(base, ".skillgate.yml"), "isolation:\n  allowWeaker: true\n");
    expect((await resolveSettings({ repo, baseDir: base }, quiet)).isolation).toEqual({
      required: false,
      allowWeaker: true,
    });
  });
});

describe("reporting the isolation", () => {
  const at = (isolation: IsolationReport) => makeReport({ isolation });

  it("the terminal says the level, and warns loudly when it is weaker", () => {
    const strong = renderTerminal(at({ ...full, required: "uid+namespaces" }), { color: false });
    expect(strong).toContain("isolation: uid+namespaces");
    expect(strong).not.toContain("WARNING");
    const weak = renderTerminal(at({ ...weaker, required: "uid+namespaces", weakerAccepted: "local run" }), {
      color: false,
    });
    expect(weak).toContain("WARNING isolation: namespaces, weaker than uid+namespaces");
  });

  it("the check summary names the level, with a warning block when weaker", () => {
    const opts = { maxChars: 65_535, fullReportHint: "the artifact" };
    expect(renderMarkdown(at({ ...full, required: "uid+namespaces" }), opts)).toContain(
      "isolation `uid+namespaces`",
    );
    const md = renderMarkdown(at({ ...weaker, required: "uid+namespaces", weakerAccepted: "config" }), opts);
    expect(md).toMatch(
      /\[!WARNING\]\n> Untrusted code ran at isolation `namespaces`.*isolation\.allowWeaker/,
    );
  });

  it("the JSON report, the terminal and the check summary name what bounded each run's tree", () => {
    const resources = { level: "cgroup v2", reason: "a cgroup v2 per run" } as const;
    const decided = decideIsolation({ ...full, resources }, {});
    expect(decided).toMatchObject({ go: true, report: { resources } });
    // Nothing is bounded by OS limits at level none: no resources are claimed.
    expect(decideIsolation({ level: "none", reason: "x", resources }, {})).not.toHaveProperty(
      "report.resources",
    );
    const iso: IsolationReport = { ...full, required: "uid+namespaces", resources };
    expect(renderTerminal(at(iso), { color: false })).toContain(
      "isolation: uid+namespaces; limits: cgroup v2",
    );
    expect(renderMarkdown(at(iso), { maxChars: 65_535, fullReportHint: "x" })).toContain(
      "isolation `uid+namespaces`, limits `cgroup v2`",
    );
  });

  it("merged shards report the weakest isolation any of them ran at", () => {
    const merged = mergeReports([
      {
        source: "a.json",
        report: { ...at({ ...full, required: "uid+namespaces" }), shard: { index: 1, total: 2 } },
      },
      {
        source: "b.json",
        report: {
          ...at({ ...weaker, required: "uid+namespaces" }),
          shard: { index: 2, total: 2 },
          skills: [],
        },
      },
    ]);
    expect(merged.isolation?.level).toBe("namespaces");
  });
});
