import { describe, expect, it } from "vitest";
import type { CheckResult, VerdictPolicy } from "../../src/model/index.js";
import { DEFAULT_VERDICT_POLICY } from "../../src/settings/defaults.js";
import {
  type ConfirmationRoot,
  confirmationSchedule,
  decideNewRoots,
  lookAlphaShares,
} from "../../src/verdict/new-roots.js";
import { check, trials } from "../attribute/make-checks.js";

const policy: VerdictPolicy = { ...DEFAULT_VERDICT_POLICY };

/** `failedEvery` k: trial t fails when t % k === 0 (0 = never, 1 = always). Deterministic, so tests cannot flake. */
function pattern(checkId: string, failedEvery: number, from: number, n: number): CheckResult[] {
  return Array.from({ length: n }, (_, i) =>
    check(checkId, failedEvery > 0 && (from + i) % failedEvery === 0 ? "fail" : "pass", { trial: from + i }),
  );
}

/**
 * A pipeline stand-in: runs the extra trials each asked root wants with fixed head/base failure patterns; `calls`
 * records each request's check ids and its first root's extra head and base trials.
 */
function confirmer(
  head: Record<string, number>,
  base: Record<string, number>,
  calls: [string[], number, number][],
  start = { head: 5, base: 5 },
) {
  const ran: Record<string, { head: number; base: number }> = {};
  return async (roots: ConfirmationRoot[]) => {
    calls.push([roots.map((r) => r.checkId), roots[0]!.extraTrials.head, roots[0]!.extraTrials.base]);
    const out = { head: [] as CheckResult[], base: [] as CheckResult[] };
    for (const { checkId: id, extraTrials: extra } of roots) {
      const from = ran[id] ?? start;
      out.head.push(...pattern(id, head[id] ?? 0, from.head, extra.head));
      out.base.push(...pattern(id, base[id] ?? 0, from.base, extra.base));
      ran[id] = { head: from.head + extra.head, base: from.base + extra.base };
    }
    return out;
  };
}

describe("decideNewRoots", () => {
  it("calls every head root head-only when there is no base", async () => {
    const d = await decideNewRoots(trials("split/a", 2, 5), undefined, policy);
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ checkId: "split/a", status: "head-only", head: { failed: 2, trials: 5 } });
    expect(d[0]!.base).toBeUndefined();
  });

  it("calls a root of a check that base never ran head-only", async () => {
    const d = await decideNewRoots(trials("split/new-case", 1, 5), trials("split/a", 0, 5), policy);
    expect(d[0]!.status).toBe("head-only");
    expect(d[0]!.reason).toMatch(/not observed at base/);
  });

  it("does not call a root that fails at base as often new", async () => {
    // Tempting wrong answer: "new", because it fails at head.
    const d = await decideNewRoots(trials("split/a", 3, 5), trials("split/a", 3, 5), policy);
    expect(d[0]).toMatchObject({
      status: "pre-existing",
      head: { failed: 3, trials: 5 },
      base: { failed: 3, trials: 5 },
    });
    expect(d[0]!.pValue).toBeGreaterThan(0.4);
  });

  it("calls 10/10 vs 0/10 new without confirmation (p = 1/184756)", async () => {
    const d = await decideNewRoots(trials("split/a", 10, 10), trials("split/a", 0, 10), policy);
    expect(d[0]!.status).toBe("new");
    expect(d[0]!.pValue).toBeCloseTo(1 / 184756, 10);
    expect(d[0]!.familySize).toBe(1);
    expect(d[0]!.threshold).toBe(0.01);
  });

  it("shares α over every check that failed in either arm: 5/5 vs 0/5 is not enough among 10", async () => {
    const noisy = (arm: "head" | "base") =>
      Array.from({ length: 9 }, (_, i) => trials(`c${i}/x`, arm === "head" ? 1 : 2, 5)).flat();
    const head = [...trials("split/a", 5, 5), ...noisy("head")];
    const base = [...trials("split/a", 0, 5), ...noisy("base")];
    const d = await decideNewRoots(head, base, policy);
    const a = d.find((x) => x.checkId === "split/a")!;
    expect(a.familySize).toBe(10);
    expect(a.threshold).toBeCloseTo(0.001, 12);
    expect(a.pValue).toBeCloseTo(1 / 252, 12);
    // Too few trials and no confirmation allowed: undecided, reported as such (the verdict fails closed).
    expect(a.status).toBe("inconclusive");
    expect(a.undecidedBecause).toBe("no-confirmation");
    // The noisy checks fail less at head than at base: pre-existing.
    expect(d.filter((x) => x.checkId !== "split/a").every((x) => x.status === "pre-existing")).toBe(true);
  });

  it("confirms the suspects with extra trials of their checks only, and then calls the regressed one new", async () => {
    const head = [...trials("split/a", 4, 5), ...trials("split/b", 1, 5), ...trials("split/c", 0, 5)];
    const base = [...trials("split/a", 0, 5), ...trials("split/b", 3, 5), ...trials("split/c", 0, 5)];
    const calls: [string[], number, number][] = [];
    const d = await decideNewRoots(head, base, policy, confirmer({ "split/a": 1 }, { "split/a": 0 }, calls));
    const a = d.find((x) => x.checkId === "split/a")!;
    expect(a.status).toBe("new");
    // One round: head 5 → 9 trials, base filled to the stored depth (30), for the two suspects only (c never failed).
    expect(calls).toEqual([[["split/a", "split/b"], 4, 25]]);
    expect(a).toMatchObject({ head: { failed: 8, trials: 9 }, base: { failed: 0, trials: 30 } });
    expect(a.confirmationTrials).toBe(4);
    expect(a.pValue!).toBeLessThanOrEqual(a.threshold!);
    expect(a.looks).toBe(4);
    // b: 1/9 at head against 3/30 at base favours no rise of 0.4 by more than 5:1.
    expect(d.find((x) => x.checkId === "split/b")).toMatchObject({
      status: "pre-existing",
      head: { failed: 1, trials: 9 },
      base: { failed: 3, trials: 30 },
    });
  });

  it("calls a lone head failure a flake once confirmation shows no difference", async () => {
    const calls: [string[], number, number][] = [];
    const d = await decideNewRoots(
      trials("split/a", 1, 5),
      trials("split/a", 0, 5),
      policy,
      confirmer({}, {}, calls),
    );
    // 1/5 vs 0/5 is too few to decide (and five base trials too few for futility); at 9 head trials against 30
    // base trials Wald's ratio for a rise of 0.4 is 0.4 (not yet 5:1 against it); at 22 against 33 it is far below.
    expect(calls.map(([, h, b]) => [h, b])).toEqual([
      [4, 25],
      [13, 3],
    ]);
    // Base never failed: not "pre-existing" (that would claim base fails too), but not significant.
    expect(d[0]).toMatchObject({
      status: "not-significant",
      head: { failed: 1, trials: 22 },
      base: { failed: 0, trials: 33 },
    });
    expect(d[0]!.reason).toMatch(/favour no rise/);
  });

  it("stops confirming a check that fails in every trial of both arms once each arm has 10 trials", async () => {
    // Wald's ratio cannot settle it (a rise of 0.4 above a base rate near 1 is out of reach, and each head failure
    // counts a little for it): without the tie rule it would run every look.
    const calls: [string[], number, number][] = [];
    const d = await decideNewRoots(
      trials("split/a", 5, 5),
      trials("split/a", 5, 5),
      policy,
      confirmer({ "split/a": 1 }, { "split/a": 1 }, calls),
    );
    expect(calls.map(([, h]) => h)).toEqual([4, 13]);
    expect(d[0]).toMatchObject({
      status: "pre-existing",
      head: { failed: 22, trials: 22 },
      base: { failed: 33, trials: 33 },
      confirmationTrials: 17,
    });
    expect(d[0]!.reason).toMatch(/fails at base at least as often, 10\+ trials per arm/);
  });

  it("never calls a check that cannot be evaluated pre-existing, however it fares at base", async () => {
    // Tempting wrong answer: "pre-existing", because it errors at base as often as at head.
    const errors = (n: number) =>
      Array.from({ length: n }, (_, t) => check("split/g", "error", { trial: t }));
    for (const base of [errors(5), trials("split/g", 0, 5), trials("split/g", 5, 5), undefined]) {
      const d = await decideNewRoots(errors(5), base, policy, confirmer({}, {}, []));
      expect(d).toHaveLength(1);
      expect(d[0]).toMatchObject({ checkId: "split/g", status: "error" });
      expect(d[0]!.reason).toMatch(/never a pass/);
    }
  });

  it("counts a base error as no observation: head failures against base errors are head-only, not pre-existing", async () => {
    const baseErrors = Array.from({ length: 5 }, (_, t) => check("split/g", "error", { trial: t }));
    const d = await decideNewRoots(trials("split/g", 5, 5), baseErrors, policy);
    expect(d[0]).toMatchObject({ status: "head-only" });
    expect(d[0]!.reason).toMatch(/could not be evaluated at base/);
  });

  it("turns a suspect into an error root when a confirmation trial cannot evaluate it", async () => {
    const d = await decideNewRoots(
      trials("split/a", 2, 5),
      trials("split/a", 0, 5),
      policy,
      async ([root]) => ({
        head: Array.from({ length: root!.extraTrials.head }, (_, t) =>
          check(root!.checkId, "error", { trial: 5 + t }),
        ),
        base: trials(root!.checkId, 0, root!.extraTrials.base, { firstTrial: 5 }),
      }),
    );
    expect(d[0]).toMatchObject({ status: "error" });
  });

  it("reports inconclusive when confirmation trials fail to run", async () => {
    const d = await decideNewRoots(trials("split/a", 2, 5), trials("split/a", 0, 5), policy, async () => {
      throw new Error("budget of $5 spent");
    });
    expect(d[0]).toMatchObject({ status: "inconclusive", undecidedBecause: "confirmation-error" });
    expect(d[0]!.reason).toMatch(/budget of \$5 spent/);
  });

  it("stops at the confirmation budget and says so", async () => {
    const calls: [string[], number, number][] = [];
    const small = { ...policy, maxConfirmationTrials: 3 };
    // Head fails every other trial, base every tenth: 4/8 vs 3/30 favours a rise of 0.4 by ~39:1 but p = 0.025
    // stays above α at the last of the two looks (0.01 × 75 %).
    const d = await decideNewRoots(
      pattern("split/a", 2, 0, 5),
      pattern("split/a", 10, 0, 5),
      small,
      confirmer({ "split/a": 2 }, { "split/a": 10 }, calls),
    );
    expect(calls.map(([, h, b]) => [h, b])).toEqual([[3, 25]]);
    expect(d[0]).toMatchObject({
      status: "inconclusive",
      undecidedBecause: "max-trials",
      confirmationTrials: 3,
      head: { failed: 4, trials: 8 },
      base: { failed: 3, trials: 30 },
      looks: 2,
    });
    expect(d[0]!.threshold).toBeCloseTo(0.0075, 12);
  });

  it("ignores baseline-mode failures: without the skill, failing is the point", async () => {
    const head = trials("split/D:no-lost-cent", 5, 5, { mode: "baseline" });
    expect(await decideNewRoots(head, [], policy)).toEqual([]);
  });

  it("compares trigger queries per mode: a query that stopped firing is new", async () => {
    const head = trials("trigger/fire/0", 12, 12, { mode: "trigger" });
    const base = trials("trigger/fire/0", 0, 12, { mode: "trigger" });
    const d = await decideNewRoots(head, base, policy);
    expect(d[0]).toMatchObject({ checkId: "trigger/fire/0", mode: "trigger", status: "new" });
  });

  it("rejects a bad policy", async () => {
    await expect(decideNewRoots([], [], { ...policy, alpha: 0 })).rejects.toThrow(
      /alpha must be in \(0, 1\)/,
    );
    await expect(decideNewRoots([], [], { ...policy, maxConfirmationTrials: -1 })).rejects.toThrow(
      /non-negative/,
    );
  });
});

describe("confirmation schedule", () => {
  it("looks at most three more times, at sizes fixed by the first batch, up to the budget", () => {
    expect(confirmationSchedule(5, 55)).toEqual([9, 22, 60]);
    expect(confirmationSchedule(3, 55)).toEqual([5, 13, 36]);
    expect(confirmationSchedule(5, 10)).toEqual([9, 15]);
    expect(confirmationSchedule(5, 3)).toEqual([8]);
    expect(confirmationSchedule(5, 0)).toEqual([]);
  });

  it("spends most of α at the later, larger looks, and all of it over the looks a design has", () => {
    const close = (xs: number[], ys: number[]) => {
      for (const [i, y] of ys.entries()) expect(xs[i]).toBeCloseTo(y, 12);
    };
    close(lookAlphaShares(4), [0.05, 0.15, 0.3, 0.5]);
    close(lookAlphaShares(2), [0.25, 0.75]);
    expect(lookAlphaShares(1)).toEqual([1]);
    for (const n of [1, 2, 3, 4]) expect(lookAlphaShares(n).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });
});
