import { describe, expect, it } from "vitest";
import type { CheckResult, VerdictPolicy } from "../../src/model/index.js";
import { alphaSpendingLooks, confirmationSchedule, decideNewRoots } from "../../src/verdict/new-roots.js";
import { DEFAULT_VERDICT_POLICY } from "../../src/verdict/policy.js";
import { check, trials } from "../attribute/make-checks.js";

const policy: VerdictPolicy = { ...DEFAULT_VERDICT_POLICY };

/** `failedEvery` k: trial t fails when t % k === 0 (0 = never, 1 = always). Deterministic, so tests cannot flake. */
function pattern(checkId: string, failedEvery: number, from: number, n: number): CheckResult[] {
  return Array.from({ length: n }, (_, i) =>
    check(checkId, failedEvery > 0 && (from + i) % failedEvery === 0 ? "fail" : "pass", { trial: from + i }),
  );
}

/** A pipeline stand-in: runs extra trials of the asked checks with fixed head/base failure patterns. */
function confirmer(head: Record<string, number>, base: Record<string, number>, calls: [string[], number][]) {
  const ran: Record<string, number> = {};
  return async (ids: string[], extra: number) => {
    calls.push([ids, extra]);
    const out = { head: [] as CheckResult[], base: [] as CheckResult[] };
    for (const id of ids) {
      const from = ran[id] ?? 0;
      out.head.push(...pattern(id, head[id] ?? 0, from, extra));
      out.base.push(...pattern(id, base[id] ?? 0, from, extra));
      ran[id] = from + extra;
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

  it("confirms a suspect with extra trials of that check only, and then calls it new", async () => {
    const head = [...trials("split/a", 4, 5), ...trials("split/b", 1, 5)];
    const base = [...trials("split/a", 0, 5), ...trials("split/b", 3, 5)];
    const calls: [string[], number][] = [];
    const d = await decideNewRoots(head, base, policy, confirmer({ "split/a": 1 }, { "split/a": 0 }, calls));
    const a = d.find((x) => x.checkId === "split/a")!;
    expect(a.status).toBe("new");
    expect(calls.every(([ids]) => ids.length === 1 && ids[0] === "split/a")).toBe(true);
    expect(calls[0]![1]).toBe(3); // 5 → 8 trials per arm
    expect(a.confirmationTrials).toBe(calls.reduce((s, [, n]) => s + n, 0));
    expect(a.head.trials).toBe(5 + a.confirmationTrials);
    expect(a.pValue!).toBeLessThanOrEqual(a.threshold!);
    expect(a.looks).toBeGreaterThan(1);
    expect(d.find((x) => x.checkId === "split/b")!.status).toBe("pre-existing");
  });

  it("calls a lone head failure a flake once confirmation shows no difference", async () => {
    const calls: [string[], number][] = [];
    const d = await decideNewRoots(
      trials("split/a", 1, 5),
      trials("split/a", 0, 5),
      policy,
      confirmer({}, {}, calls),
    );
    // 1/5 vs 0/5 is too few to decide: confirmed at 8, then decided at 12 trials per arm (p = 0.5).
    expect(calls.map(([, n]) => n)).toEqual([3, 4]);
    // Base never failed: not "pre-existing" (that would claim base fails too), but not significant.
    expect(d[0]).toMatchObject({
      status: "not-significant",
      head: { failed: 1, trials: 12 },
      base: { failed: 0, trials: 12 },
    });
    expect(d[0]!.reason).toMatch(/flake/);
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
      async (ids, n) => ({
        head: Array.from({ length: n }, (_, t) => check(ids[0]!, "error", { trial: 5 + t })),
        base: trials(ids[0]!, 0, n, { firstTrial: 5 }),
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
    const calls: [string[], number][] = [];
    const small = { ...policy, maxConfirmationTrials: 3 };
    // Head fails every other trial, base never: 1/2 vs 0 is suggestive but 8 trials cannot reach α.
    const d = await decideNewRoots(
      pattern("split/a", 2, 0, 5),
      trials("split/a", 0, 5),
      small,
      confirmer({ "split/a": 2 }, {}, calls),
    );
    expect(calls.map(([, n]) => n)).toEqual([3]);
    expect(d[0]).toMatchObject({
      status: "inconclusive",
      undecidedBecause: "max-trials",
      confirmationTrials: 3,
    });
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
  it("grows arms ×1.5 up to the budget", () => {
    expect(confirmationSchedule(5, 55)).toEqual([3, 7, 13, 22, 36, 55]);
    expect(confirmationSchedule(5, 0)).toEqual([]);
  });

  it("spends α only on looks that can reach it", () => {
    // At α 0.01 the look at 5 trials cannot reach 0.01/6 (its best p is 1/252), the other six can.
    expect(alphaSpendingLooks([5, 8, 12, 18, 27, 41, 60], 0.01)).toBe(6);
    expect(alphaSpendingLooks([3, 60], 0.01)).toBe(1);
  });
});
