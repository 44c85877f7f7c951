import { type AttributedRoot, attributeRoots, type CheckTally } from "../attribute/roots.js";
import type { CheckResult, RootStatus, SourceLocation, TrialMode, VerdictPolicy } from "../model/index.js";
import { CONFIRMATION_GROWTH, FUTILITY_MIN_TRIALS, FUTILITY_P } from "./policy.js";
import { fisherOneSided, minAttainableP } from "./stats.js";

/**
 * Which roots are new: head vs base, per root check id, with an exact test on per-trial outcomes.
 *
 * Test: one-sided Fisher exact test (head fails more often than base) on the trials in which the check was
 * observed on its own (passed, or failed as a root; cascades and skips are not observations of this check).
 *
 * Family-wise α across the PR (Bonferroni over checks and looks, with Tarone's refinement): the family is every
 * check observed in both arms that failed (as a root) in either arm — m of them; a check failing in neither arm
 * has a zero margin and can never reach significance, so it spends no α. Suspects are re-tested at up to L
 * looks as confirmation trials arrive (arms grow ×1.5 per look up to `maxConfirmationTrials` extra trials per
 * arm). A look at which even the most extreme data cannot reach the threshold spends no α, so only the K looks
 * whose smallest attainable p-value is ≤ α/(m·K) are counted. A root is `new` when p ≤ α/(m·K) at some look:
 * the chance that an A/A PR shows any new root is ≤ α (measured in `bench/verdict.ts`).
 *
 * A suspect stops being one (status `pre-existing`) when head fails less often than base, or once both arms
 * have ≥ FUTILITY_MIN_TRIALS trials and head fails no more often than base, or p ≥ FUTILITY_P (no sign at all that head is worse: a flake seen in
 * one arm only). Below that many trials a tie is re-checked while confirmation trials are available (a drop
 * from 0.9 to 0.5 shows head ≤ base in 5 trials about 12 % of the time). When confirmation trials run out —
 * no `confirm`, the budget is spent, or the runner failed — a suspect is `pre-existing` if base fails at least
 * as often, `inconclusive` if it has too few trials to call a flake or if p ≤ α/m (it would be new but for the
 * repeated looks), and `pre-existing` (not significantly worse) otherwise.
 */

export interface RootDecision {
  /** `skill|mode|checkId`. */
  key: string;
  skill: string;
  checkId: string;
  mode: TrialMode;
  status: RootStatus;
  head: { failed: number; trials: number };
  base?: { failed: number; trials: number };
  pValue?: number;
  /** The rejection threshold α/(m·K) this root was held to. */
  threshold?: number;
  /** m: checks in the family the α is shared over. */
  familySize: number;
  /** K: looks that spend α. */
  looks: number;
  /** Confirmation trials per arm added for this root. */
  confirmationTrials: number;
  /** Why confirmation could not settle it (for `inconclusive`). */
  undecidedBecause?: "no-confirmation" | "max-trials" | "confirmation-error";
  /** One sentence: counts, p-value, threshold, decision. */
  reason: string;
  cascaded: string[];
  loc: SourceLocation;
  /** The head failure message (first failed trial). */
  message: string;
  discriminator: boolean;
  errorOnly: boolean;
}

export type ConfirmFn = (
  checkIds: string[],
  extraTrialsPerArm: number,
) => Promise<{ head: CheckResult[]; base: CheckResult[] }>;

interface Counts {
  headFailed: number;
  headTrials: number;
  baseFailed: number;
  baseTrials: number;
}

/** Modes compared head vs base. Baseline trials run without the skill: their failures are the point. */
const comparedModes: ReadonlySet<TrialMode> = new Set<TrialMode>(["skill", "trigger"]);

const compared = (checks: CheckResult[]): CheckResult[] => checks.filter((c) => comparedModes.has(c.mode));

const tallyMap = (checks: CheckTally[]): Map<string, CheckTally> => new Map(checks.map((t) => [t.key, t]));

/** Cumulative extra trials per arm at each look after the first, e.g. n0 = 5, budget 55 → 3, 7, 13, 22, 36, 55. */
export function confirmationSchedule(startTrials: number, maxExtra: number): number[] {
  const extras: number[] = [];
  let size = Math.max(1, startTrials);
  while (maxExtra > 0 && size < startTrials + maxExtra) {
    size = Math.min(startTrials + maxExtra, Math.max(size + 1, Math.ceil(size * CONFIRMATION_GROWTH)));
    extras.push(size - startTrials);
  }
  return extras;
}

/** K: the fewest looks such that the looks able to reach α/(m·K) number at most K. */
export function alphaSpendingLooks(lookSizes: number[], familyAlpha: number): number {
  for (let k = 1; k < lookSizes.length; k++) {
    const able = lookSizes.filter((n) => minAttainableP(n, n) <= familyAlpha / k).length;
    if (able <= k) return k;
  }
  return Math.max(1, lookSizes.length);
}

const fmtP = (p: number): string => (p < 0.0001 ? p.toExponential(1) : String(Number(p.toPrecision(2))));

export async function decideNewRoots(
  head: CheckResult[],
  base: CheckResult[] | undefined,
  policy: VerdictPolicy,
  confirm?: ConfirmFn,
): Promise<RootDecision[]> {
  if (!(policy.alpha > 0 && policy.alpha < 1))
    throw new RangeError(`verdict.alpha must be in (0, 1), got ${policy.alpha}`);
  if (!Number.isInteger(policy.maxConfirmationTrials) || policy.maxConfirmationTrials < 0) {
    throw new RangeError(
      `verdict.maxConfirmationTrials must be a non-negative integer, got ${policy.maxConfirmationTrials}`,
    );
  }
  const headA = attributeRoots(compared(head));
  const baseA = base ? attributeRoots(compared(base)) : undefined;
  const headTallies = tallyMap(headA.checks);
  const baseTallies = tallyMap(baseA?.checks ?? []);

  const decisions = new Map<string, RootDecision>();
  const cascaded = new Map<string, Set<string>>(headA.roots.map((r) => [r.key, new Set(r.cascaded)]));
  const counts = new Map<string, Counts>();
  const family: AttributedRoot[] = [];
  for (const r of headA.roots) {
    const b = baseTallies.get(r.key);
    const common = {
      key: r.key,
      skill: r.skill,
      checkId: r.checkId,
      mode: r.mode,
      head: { failed: r.failedTrials.length, trials: r.trials },
      familySize: 0,
      looks: 0,
      confirmationTrials: 0,
      cascaded: r.cascaded,
      loc: r.loc,
      message: r.message,
      discriminator: r.discriminator,
      errorOnly: r.errorOnly,
    };
    if (!b || b.observed === 0) {
      const why = !baseA ? "no base was evaluated" : "the check was not observed at base";
      decisions.set(r.key, {
        ...common,
        status: "head-only",
        reason: `fails at head in ${r.failedTrials.length}/${r.trials} trials; ${why}`,
      });
      continue;
    }
    family.push(r);
    counts.set(r.key, {
      headFailed: r.failedTrials.length,
      headTrials: r.trials,
      baseFailed: b.failedAsRoot,
      baseTrials: b.observed,
    });
  }

  // Tarone: a check that failed in neither arm cannot reach any threshold (its margin is 0), so it spends no α;
  // every check observed in both arms with a failure in either arm does, even one failing at base only.
  const m = [...headTallies.values()].filter((h) => {
    const b = baseTallies.get(h.key);
    return b !== undefined && h.observed > 0 && b.observed > 0 && h.failedAsRoot + b.failedAsRoot > 0;
  }).length;
  const familyAlpha = policy.alpha / Math.max(1, m);
  const startTrials = Math.max(
    0,
    ...family.map((r) => Math.max(headTallies.get(r.key)!.observed, baseTallies.get(r.key)!.observed)),
  );
  const extras = confirm ? confirmationSchedule(startTrials, policy.maxConfirmationTrials) : [];
  const looks = alphaSpendingLooks([startTrials, ...extras.map((e) => startTrials + e)], familyAlpha);
  const threshold = familyAlpha / looks;

  const decide = (
    r: AttributedRoot,
    status: RootStatus,
    p: number,
    extra: number,
    reason: string,
    why?: RootDecision["undecidedBecause"],
  ) => {
    const c = counts.get(r.key)!;
    decisions.set(r.key, {
      key: r.key,
      skill: r.skill,
      checkId: r.checkId,
      mode: r.mode,
      status,
      head: { failed: c.headFailed, trials: c.headTrials },
      base: { failed: c.baseFailed, trials: c.baseTrials },
      pValue: p,
      threshold,
      familySize: m,
      looks,
      confirmationTrials: extra,
      ...(why ? { undecidedBecause: why } : {}),
      reason: `head ${c.headFailed}/${c.headTrials} vs base ${c.baseFailed}/${c.baseTrials} failed; one-sided Fisher p = ${fmtP(p)}, threshold ${fmtP(threshold)} (α ${policy.alpha} / ${m} check(s) / ${looks} look(s)): ${reason}`,
      cascaded: [...cascaded.get(r.key)!].sort(),
      loc: r.loc,
      message: r.message,
      discriminator: r.discriminator,
      errorOnly: r.errorOnly,
    });
  };

  let suspects = family;
  let extraSoFar = 0;
  for (let look = 0; suspects.length > 0; look++) {
    const still: AttributedRoot[] = [];
    for (const r of suspects) {
      const c = counts.get(r.key)!;
      const p = fisherOneSided(c.headFailed, c.headTrials, c.baseFailed, c.baseTrials);
      const enough = Math.min(c.headTrials, c.baseTrials) >= FUTILITY_MIN_TRIALS;
      if (p <= threshold) decide(r, "new", p, extraSoFar, "new (fails more often at head)");
      else if (
        c.headFailed * c.baseTrials < c.baseFailed * c.headTrials ||
        (enough && c.headFailed * c.baseTrials <= c.baseFailed * c.headTrials)
      )
        decide(r, "pre-existing", p, extraSoFar, "pre-existing (fails at base at least as often)");
      else if (enough && p >= FUTILITY_P - 1e-9)
        decide(r, "pre-existing", p, extraSoFar, "not new (no sign that head fails more often: a flake)");
      else still.push(r);
    }
    suspects = still;
    if (suspects.length === 0) break;

    const nextExtra = extras[look];
    let why: RootDecision["undecidedBecause"] | undefined;
    let batch: { head: CheckResult[]; base: CheckResult[] } | undefined;
    if (!confirm || policy.maxConfirmationTrials === 0) why = "no-confirmation";
    else if (nextExtra === undefined) why = "max-trials";
    else {
      try {
        const ids = [...new Set(suspects.map((r) => r.checkId))].sort();
        batch = await confirm(ids, nextExtra - extraSoFar);
      } catch (e) {
        why = "confirmation-error";
        const msg = e instanceof Error ? e.message : String(e);
        for (const r of suspects) {
          const c = counts.get(r.key)!;
          const p = fisherOneSided(c.headFailed, c.headTrials, c.baseFailed, c.baseTrials);
          decide(r, "inconclusive", p, extraSoFar, `inconclusive (confirmation trials failed: ${msg})`, why);
        }
        break;
      }
    }
    if (!batch) {
      for (const r of suspects) {
        const c = counts.get(r.key)!;
        const p = fisherOneSided(c.headFailed, c.headTrials, c.baseFailed, c.baseTrials);
        const enough = Math.min(c.headTrials, c.baseTrials) >= FUTILITY_MIN_TRIALS;
        if (c.headFailed * c.baseTrials <= c.baseFailed * c.headTrials)
          decide(r, "pre-existing", p, extraSoFar, "pre-existing (fails at base at least as often)");
        else if (!enough)
          decide(
            r,
            "inconclusive",
            p,
            extraSoFar,
            `inconclusive (too few trials to decide; ${why === "no-confirmation" ? "no confirmation trials allowed" : "confirmation budget spent"})`,
            why,
          );
        else if (p <= familyAlpha)
          decide(
            r,
            "inconclusive",
            p,
            extraSoFar,
            `inconclusive (p ≤ α/m = ${fmtP(familyAlpha)} but not after ${looks} looks; confirmation budget spent)`,
            why,
          );
        else
          decide(
            r,
            "pre-existing",
            p,
            extraSoFar,
            "not new (not significantly more often at head after all confirmation trials)",
          );
      }
      break;
    }
    // Attribute the batch on its own: its trial indices may repeat the first run's.
    extraSoFar = nextExtra!;
    const bh = attributeRoots(compared(batch.head));
    const bb = attributeRoots(compared(batch.base));
    const bhT = tallyMap(bh.checks);
    const bbT = tallyMap(bb.checks);
    const bhRoots = new Map(bh.roots.map((r) => [r.key, r]));
    for (const r of suspects) {
      const c = counts.get(r.key)!;
      c.headFailed += bhT.get(r.key)?.failedAsRoot ?? 0;
      c.headTrials += bhT.get(r.key)?.observed ?? 0;
      c.baseFailed += bbT.get(r.key)?.failedAsRoot ?? 0;
      c.baseTrials += bbT.get(r.key)?.observed ?? 0;
      for (const id of bhRoots.get(r.key)?.cascaded ?? []) cascaded.get(r.key)!.add(id);
    }
  }

  return [...decisions.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
