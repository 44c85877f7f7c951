import { describe, expect, it } from "vitest";
import {
  attributeRoots,
  compressionStats,
  formatCompression,
  mergeAttributions,
} from "../../src/attribute/roots.js";
import { check } from "./make-checks.js";

describe("attributeRoots", () => {
  it("hangs a depends_on chain under its first failure and keeps independent failures as roots", () => {
    const a = attributeRoots([
      check("split/a", "fail"),
      check("split/b", "fail", { dependsOn: ["split/a"] }),
      check("split/c", "fail", { dependsOn: ["split/b"] }),
      check("split/d", "fail"),
      check("split/e", "pass", { dependsOn: ["split/a"] }),
    ]);
    // Tempting wrong answer: four roots (every failed check), or b as a root because only c depends on it.
    expect(a.roots.map((r) => r.checkId)).toEqual(["split/a", "split/d"]);
    expect(a.roots[0]!.cascaded).toEqual(["split/b", "split/c"]);
    expect(a.roots[1]!.cascaded).toEqual([]);
    expect(a.failedChecks).toBe(4);
    expect(a.perTrial).toEqual([{ trialKey: "split-cents|skill|split|0", failed: 4, roots: 2 }]);
  });

  it("makes an errored trial the single root: assertions skipped because of it are cascades, not roots", () => {
    const a = attributeRoots([
      check("split/trial-ok", "fail"),
      check("split/mentions-total", "skipped", { skipReason: "dependency failed: split/trial-ok" }),
      check("split/D:no-lost-cent", "skipped", { dependsOn: ["split/trial-ok"] }),
    ]);
    expect(a.roots.map((r) => r.checkId)).toEqual(["split/trial-ok"]);
    // The implicit edge applies even when the grader did not list trial-ok in dependsOn.
    expect(a.roots[0]!.cascaded).toEqual(["split/D:no-lost-cent", "split/mentions-total"]);
    // The skipped assertions are failures of the trial, cascaded from its root: counted, not lost.
    expect(a.failedChecks).toBe(3);
    expect(a.perTrial).toEqual([{ trialKey: "split-cents|skill|split|0", failed: 3, roots: 1 }]);
  });

  it("counts checks skipped because a dependency failed as cascaded failures of its root (two deep)", () => {
    // The grader skips dependents of a failed check: b "dependency failed: a", c "dependency skipped: b".
    const a = attributeRoots([
      check("split/a", "fail"),
      check("split/b", "skipped", { dependsOn: ["split/a"], skipReason: "dependency failed: a" }),
      check("split/c", "skipped", { dependsOn: ["split/b"], skipReason: "dependency skipped: b" }),
      check("split/d", "pass"),
    ]);
    // Tempting wrong answer: 1 failed check → 1 root (what the demo printed: no compression ever).
    expect(a.failedChecks).toBe(3);
    expect(a.roots.map((r) => r.checkId)).toEqual(["split/a"]);
    expect(a.roots[0]!.cascaded).toEqual(["split/b", "split/c"]);
    expect(compressionStats(a)).toMatchObject({ failedChecks: 3, roots: 1, meanFailedChecksPerTrial: 3 });
  });

  it("does not count a check whose condition was false, even under a failed check", () => {
    const a = attributeRoots([
      check("split/a", "fail"),
      check("split/b", "skipped", { dependsOn: ["split/a"], skipReason: "condition false" }),
    ]);
    expect(a.failedChecks).toBe(1);
    expect(a.roots[0]!.cascaded).toEqual([]);
  });

  it("puts a gate check under its module-loads check and a trial's checks under skill-registered", () => {
    const a = attributeRoots([
      check("split/conserves/module-loads", "fail"),
      check("split/conserves", "error"),
      check("route/skill-registered", "fail", { mode: "trigger" }),
      check("route/fires", "fail", { mode: "trigger" }),
    ]);
    // Sorted by key: skill mode before trigger mode.
    expect(a.roots.map((r) => r.checkId)).toEqual(["split/conserves/module-loads", "route/skill-registered"]);
    expect(a.roots[0]!.cascaded).toEqual(["split/conserves"]);
    expect(a.roots[1]!.cascaded).toEqual(["route/fires"]);
  });

  it("does not count a check skipped because its condition was false", () => {
    const a = attributeRoots([
      check("split/a", "pass"),
      check("split/b", "skipped", { dependsOn: ["split/a"], skipReason: "condition false" }),
    ]);
    expect(a.roots).toEqual([]);
    expect(a.failedChecks).toBe(0);
    expect(a.checks.find((c) => c.checkId === "split/b")!.observed).toBe(0);
  });

  it("treats a cycle of failures as roots rather than losing them", () => {
    const a = attributeRoots([
      check("split/x", "fail", { dependsOn: ["split/y"] }),
      check("split/y", "fail", { dependsOn: ["split/x"] }),
      check("split/z", "fail", { dependsOn: ["split/y"] }),
    ]);
    expect(a.roots.map((r) => r.checkId)).toEqual(["split/x", "split/y"]);
    expect(a.roots[0]!.cascaded).toEqual(["split/z"]);
    expect(a.roots[1]!.cascaded).toEqual(["split/z"]);
  });

  it("groups one root across trials of a mode; a trial where it only cascaded is not an observation", () => {
    const a = attributeRoots([
      check("split/trial-ok", "pass", { trial: 0 }),
      check("split/a", "fail", { trial: 0 }),
      check("split/trial-ok", "fail", { trial: 1 }),
      check("split/a", "fail", { trial: 1, dependsOn: ["split/trial-ok"] }),
      check("split/trial-ok", "pass", { trial: 2 }),
      check("split/a", "pass", { trial: 2 }),
      check("split/trial-ok", "pass", { trial: 3 }),
      check("split/a", "fail", { trial: 3 }),
      check("split/a", "fail", { trial: 0, mode: "baseline" }),
    ]);
    const skillRoot = a.roots.find((r) => r.key === "split-cents|skill|split/a")!;
    expect(skillRoot.failedTrials).toEqual([0, 3]);
    expect(skillRoot.trials).toBe(3);
    expect(a.roots.find((r) => r.key === "split-cents|skill|split/trial-ok")!.cascaded).toEqual(["split/a"]);
    expect(a.roots.find((r) => r.key === "split-cents|baseline|split/a")!.failedTrials).toEqual([0]);
  });

  it("rejects a check reported twice in one trial with its location", () => {
    expect(() =>
      attributeRoots([check("split/a", "pass", { line: 7 }), check("split/a", "fail", { line: 7 })]),
    ).toThrow(/prompts\/split\.yaml:7:3: check "split\/a" appears twice/);
  });

  it("reports the compression of failed checks into roots per trial", () => {
    const a = attributeRoots([
      check("c/a", "fail", { trial: 0 }),
      check("c/b", "fail", { trial: 0, dependsOn: ["c/a"] }),
      check("c/c", "fail", { trial: 0, dependsOn: ["c/a"] }),
      check("c/a", "pass", { trial: 1 }),
      check("c/b", "fail", { trial: 1, dependsOn: ["c/a"] }),
      check("c/c", "pass", { trial: 1, dependsOn: ["c/a"] }),
    ]);
    expect(compressionStats(a)).toEqual({
      trials: 2,
      failedChecks: 4,
      roots: 2,
      meanFailedChecksPerTrial: 2,
      meanRootsPerTrial: 1,
    });
    expect(formatCompression(compressionStats(a))).toBe(
      "4 failed check(s) over 2 trial(s) → 2 root(s): mean 2.00 failed checks per trial compress to 1.00 roots (seed paper: 6.34 → 2.65)",
    );
  });

  it("merges the skills' attributions into what attributing all their checks at once gives (the run's figures)", () => {
    const skill = (name: string, trials: number) =>
      Array.from({ length: trials }, (_, t) => [
        check("c/trial-ok", t % 3 === 0 ? "fail" : "pass", { skill: name, trial: t }),
        check("c/a", t % 2 ? "fail" : "pass", { skill: name, trial: t }),
        check("c/b", "skipped", {
          skill: name,
          trial: t,
          dependsOn: ["c/a"],
          skipReason: "dependency failed",
        }),
        check("trigger/fire/0", t === 1 ? "fail" : "pass", { skill: name, trial: t, mode: "trigger" }),
      ]).flat();
    const parts = [skill("zeta", 4), skill("alpha", 3), skill("mid", 5)];
    const merged = mergeAttributions(parts.map(attributeRoots));
    expect(merged).toEqual(attributeRoots(parts.flat()));
    expect(compressionStats(merged)).toEqual(compressionStats(attributeRoots(parts.flat())));
    expect(mergeAttributions([])).toEqual(attributeRoots([]));
  });
});
