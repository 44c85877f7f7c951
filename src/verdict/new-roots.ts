/**
 * Which roots are new: head vs base, per root check id, with an exact test on per-trial outcomes.
 *
 * Test: one-sided Fisher exact test (head fails more often than base) on the trials in which the check was
 * observed on its own (passed, or failed as a root; cascades, skips and errors are not observations of it).
 *
 * A root that could not be evaluated at head (any trial `error`: unknown gate, bad regex, crashed oracle …) is an
 * `error` root whatever base shows: an error is never a pass, and never "pre-existing".
 *
 * How α is spent over the family and the looks, and when a suspect is futile: sequential-design.ts.
 *
 * Every step is a function of the per-trial outcomes in trial order, so `recompute.ts` replays it from a report.
 *
 * The confirmation loop is explicit and per unit (a case, or a trigger query: the suspects of one case share its
 * trials): `RootDecider.requests()` decides what the observations so far decide and returns the confirmation
 * trials each idle unit's remaining suspects need next; the pipeline plans, runs and grades each request and hands
 * its checks back with `observe(request, batch)`. Units move through the looks independently (issue #38: one slow
 * trial holds only its own unit, not a round of every suspect); a suspect's decision depends on its own trials and
 * its own look only, so running the units in lockstep (`decideNewRoots`, `recompute.ts`) decides the same.
 */
import { type AttributedRoot, attributeRoots, type CheckTally } from "../attribute/roots.js";
import type { CheckResult, RootStatus, VerdictPolicy } from "../model/index.js";
import { DEFAULT_BASE_DEPTH } from "../settings/defaults.js";
import { type Counts, compared, failedOf, observedOf, tallyMap } from "./check-counts.js";
import { BASE_TRIALS_PER_HEAD_TRIAL } from "./policy.js";
import {
  type ConfirmationBatch,
  type ConfirmationRequest,
  type ConfirmationRoot,
  type ConfirmFn,
  type RootDecision,
  unitOfRoot,
} from "./root-decision.js";
import {
  checkPolicy,
  closingOutcome,
  confirmationSchedule,
  fmtP,
  lookAlphaShares,
  lookOutcome,
} from "./sequential-design.js";
import { fisherOneSided } from "./stats.js";

export type {
  ConfirmationBatch,
  ConfirmationRequest,
  ConfirmationRoot,
  ConfirmFn,
  RootDecision,
  RootRef,
} from "./root-decision.js";

export { unitOfRoot } from "./root-decision.js";
export { confirmationSchedule, lookAlphaShares } from "./sequential-design.js";

/**
 * The sequential head-vs-base decision over one PR. Construct it with the first trials' checks, then loop:
 * `next()` → run the requested trials → `observe()`, until `next()` returns undefined; `decisions()` then holds
 * one decision per head root. `abort()` ends the loop when confirmation trials could not run.
 */
export class RootDecider {
  private readonly policy: VerdictPolicy;
  private readonly decided = new Map<string, RootDecision>();
  private readonly counts = new Map<string, Counts>();
  private readonly cascaded = new Map<string, Set<string>>();
  private readonly roots = new Map<string, AttributedRoot>();
  private suspects: AttributedRoot[] = [];
  private readonly familySize: number;
  private readonly familyAlpha: number;
  /** Cumulative head trials of each confirmation look. */
  private readonly schedule: number[];
  /** α share of each look, the first batch's included. */
  private readonly shares: number[];
  private readonly looks: number;
  private readonly baseDepth: number;
  /** Per suspect: looks observed after the first batch (its current look's index into `shares`). */
  private readonly lookOf = new Map<string, number>();
  /** Trials asked for so far per suspect and arm (the first batch's observed, then each request's). */
  private readonly planned = new Map<string, { head: number; base: number; firstHead: number }>();
  /** Units with a request handed out and not yet observed. */
  private readonly pending = new Set<string>();

  constructor(
    head: CheckResult[],
    base: CheckResult[] | undefined,
    policy: VerdictPolicy,
    opts: { canConfirm: boolean },
  ) {
    checkPolicy(policy);
    this.policy = policy;
    const headA = attributeRoots(compared(head));
    const baseA = base ? attributeRoots(compared(base)) : undefined;
    const headTallies = tallyMap(headA.checks);
    const baseTallies = tallyMap(baseA?.checks ?? []);

    const family: AttributedRoot[] = [];
    for (const r of headA.roots) {
      this.roots.set(r.key, r);
      this.cascaded.set(r.key, new Set(r.cascaded));
      const b = baseTallies.get(r.key);
      if (r.erroredTrials.length > 0) {
        this.decideError(r, b);
        continue;
      }
      if (!b || observedOf(b) === 0) {
        const why = !baseA
          ? "no base was evaluated"
          : b
            ? "the check could not be evaluated at base"
            : "the check was not observed at base";
        this.decided.set(r.key, {
          ...this.common(r),
          status: "head-only",
          head: { failed: r.failedTrials.length, trials: r.trials },
          reason: `fails at head in ${r.failedTrials.length}/${r.trials} trials; ${why}`,
        });
        continue;
      }
      family.push(r);
      this.counts.set(r.key, {
        headFailed: r.failedTrials.length,
        headTrials: r.trials,
        baseFailed: failedOf(b),
        baseTrials: observedOf(b),
      });
    }

    // Tarone: a check that failed in neither arm cannot reach any threshold (its margin is 0), so it spends no α;
    // every check observed in both arms with a failure in either arm does, even one failing at base only.
    this.familySize = [...headTallies.values()].filter((h) => {
      const b = baseTallies.get(h.key);
      return b !== undefined && observedOf(h) > 0 && observedOf(b) > 0 && failedOf(h) + failedOf(b) > 0;
    }).length;
    this.familyAlpha = policy.alpha / Math.max(1, this.familySize);
    // The looks are sized from the first batch's head trials only, never from outcomes: the α split stays exact.
    const startTrials = Math.max(0, ...family.map((r) => this.counts.get(r.key)!.headTrials));
    this.schedule = opts.canConfirm ? confirmationSchedule(startTrials, policy.maxConfirmationTrials) : [];
    this.looks = 1 + this.schedule.length;
    this.shares = lookAlphaShares(this.looks);
    this.baseDepth = policy.baseDepth ?? DEFAULT_BASE_DEPTH;
    for (const r of family) {
      const c = this.counts.get(r.key)!;
      this.planned.set(r.key, { head: c.headTrials, base: c.baseTrials, firstHead: c.headTrials });
    }
    this.suspects = family;
  }

  /** Confirmation rounds this design may ask for (each one round of agent calls). */
  get rounds(): number {
    return this.schedule.length;
  }

  /** Whether a unit's request is out (handed out, not yet observed). */
  private idle = (r: AttributedRoot): boolean => !this.pending.has(unitOfRoot(r));

  /**
   * Decides every idle suspect the observations so far settle and returns, per idle unit with suspects left, the
   * trials it needs next. Empty once nothing is asked for: with no request out, every root is then decided
   * (confirmation not allowed or exhausted included).
   */
  requests(): ConfirmationRequest[] {
    this.settle(this.idle);
    const ready = this.suspects.filter(this.idle);
    if (ready.length === 0) return [];
    if (this.policy.maxConfirmationTrials === 0 || this.schedule.length === 0) {
      this.closeSuspects(ready, "no-confirmation");
      return [];
    }
    const units = new Map<string, AttributedRoot[]>();
    for (const r of ready) units.set(unitOfRoot(r), [...(units.get(unitOfRoot(r)) ?? []), r]);
    const out: ConfirmationRequest[] = [];
    for (const [unit, roots] of [...units].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const look = this.lookOf.get(roots[0]!.key) ?? 0;
      if (this.schedule[look] === undefined) this.closeSuspects(roots, "max-trials");
      else {
        this.pending.add(unit);
        out.push({ unit, look: look + 2, roots: roots.map((r) => this.confirmationOf(r, look)) });
      }
    }
    return out;
  }

  /** The trials suspect `r` needs for its next look (`look`: looks it has had after the first batch). */
  private confirmationOf(r: AttributedRoot, look: number): ConfirmationRoot {
    const headTarget = this.schedule[look]!;
    const p = this.planned.get(r.key)!;
    // A case's base arm is filled to the stored depth at the first confirmation look (what a warm PR reads);
    // a trigger query's base grows with its head arm only (the default branch stores its first runs).
    const depth = look === 0 && r.mode === "skill" ? this.baseDepth : 0;
    const baseTarget = Math.max(p.base, depth, Math.ceil(BASE_TRIALS_PER_HEAD_TRIAL * headTarget));
    const extraTrials = { head: Math.max(0, headTarget - p.head), base: baseTarget - p.base };
    p.head += extraTrials.head;
    p.base += extraTrials.base;
    return { key: r.key, skill: r.skill, mode: r.mode, checkId: r.checkId, caseId: r.caseId, extraTrials };
  }

  /**
   * The checks of the trials `req` asked for (both arms, graded). The batch may hold other units' checks too
   * (lockstep callers share one batch): only `req`'s suspects are counted.
   */
  observe(req: ConfirmationRequest, batch: ConfirmationBatch): void {
    if (!this.pending.delete(req.unit))
      throw new Error(`RootDecider.observe() without a request out for ${req.unit}`);
    // Attribute the batch on its own: its trials are new, but attribution is per trial either way.
    const bh = attributeRoots(compared(batch.head));
    const bb = attributeRoots(compared(batch.base));
    const bhT = tallyMap(bh.checks);
    const bbT = tallyMap(bb.checks);
    const bhRoots = new Map(bh.roots.map((r) => [r.key, r]));
    const still: AttributedRoot[] = [];
    for (const r of this.suspects) {
      if (unitOfRoot(r) !== req.unit) {
        still.push(r);
        continue;
      }
      this.lookOf.set(r.key, (this.lookOf.get(r.key) ?? 0) + 1);
      const c = this.counts.get(r.key)!;
      const h = bhT.get(r.key);
      c.headFailed += failedOf(h);
      c.headTrials += observedOf(h);
      c.baseFailed += failedOf(bbT.get(r.key));
      c.baseTrials += observedOf(bbT.get(r.key));
      const br = bhRoots.get(r.key);
      for (const id of br?.cascaded ?? []) this.cascaded.get(r.key)!.add(id);
      if (br && br.erroredTrials.length > 0) {
        this.decideError({ ...r, erroredTrials: br.erroredTrials, message: br.message }, undefined);
        continue;
      }
      still.push(r);
    }
    this.suspects = still;
  }

  /**
   * Confirmation trials could not run (the runner failed, the budget is spent): `req`'s suspects (every suspect
   * without `req`) stay undecided.
   */
  abort(message: string, req?: ConfirmationRequest): void {
    const mine = (r: AttributedRoot) => !req || unitOfRoot(r) === req.unit;
    if (req) this.pending.delete(req.unit);
    else this.pending.clear();
    this.settle(mine);
    const still: AttributedRoot[] = [];
    for (const r of this.suspects) {
      if (!mine(r)) {
        still.push(r);
        continue;
      }
      const c = this.counts.get(r.key)!;
      const p = fisherOneSided(c.headFailed, c.headTrials, c.baseFailed, c.baseTrials);
      this.decideCounted(
        r,
        "inconclusive",
        p,
        `inconclusive (confirmation trials failed: ${message})`,
        "confirmation-error",
      );
    }
    this.suspects = still;
  }

  /** One decision per head root, sorted by key. Complete once `next()` has returned undefined. */
  decisions(): RootDecision[] {
    return [...this.decided.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  private common(r: AttributedRoot) {
    return {
      key: r.key,
      skill: r.skill,
      checkId: r.checkId,
      mode: r.mode,
      familySize: 0,
      looks: 0,
      confirmationTrials: 0,
      cascaded: [...(this.cascaded.get(r.key) ?? r.cascaded)].sort(),
      loc: r.loc,
      message: r.message,
      discriminator: r.discriminator,
      ...(r.level ? { level: r.level } : {}),
      errorOnly: r.errorOnly,
    };
  }

  private decideError(r: AttributedRoot, base: CheckTally | undefined): void {
    const c = this.counts.get(r.key);
    const errored = r.erroredTrials.length;
    const atBase =
      base && base.erroredAsRoot > 0
        ? `; it could not be evaluated at base either (${base.erroredAsRoot} trial(s))`
        : "";
    this.decided.set(r.key, {
      ...this.common(r),
      status: "error",
      head: c
        ? { failed: c.headFailed, trials: c.headTrials }
        : { failed: r.failedTrials.length, trials: r.trials },
      ...(c ? { base: { failed: c.baseFailed, trials: c.baseTrials } } : {}),
      confirmationTrials: this.confirmationTrialsOf(r.key),
      reason: `could not be evaluated at head in ${errored} trial(s)${atBase}: an error is never a pass`,
    });
    this.counts.delete(r.key);
  }

  private decideCounted(
    r: AttributedRoot,
    status: RootStatus,
    p: number,
    reason: string,
    why?: RootDecision["undecidedBecause"],
  ): void {
    const c = this.counts.get(r.key)!;
    const { policy, familySize: m, looks } = this;
    const look = this.lookOf.get(r.key) ?? 0;
    const threshold = this.threshold(look);
    this.decided.set(r.key, {
      ...this.common(r),
      status,
      head: { failed: c.headFailed, trials: c.headTrials },
      base: { failed: c.baseFailed, trials: c.baseTrials },
      pValue: p,
      threshold,
      familySize: m,
      looks,
      confirmationTrials: this.confirmationTrialsOf(r.key),
      ...(why ? { undecidedBecause: why } : {}),
      reason: `head ${c.headFailed}/${c.headTrials} vs base ${c.baseFailed}/${c.baseTrials} failed; one-sided Fisher p = ${fmtP(p)}, threshold ${fmtP(threshold)} (α ${policy.alpha} / ${m} check(s), look ${look + 1} of ${looks} spending ${Math.round(this.shares[Math.min(look, this.shares.length - 1)]! * 100)} % of it): ${reason}`,
    });
  }

  /** The rejection threshold of look index `look`: its share of the family's α per check. */
  private threshold(look: number): number {
    return this.familyAlpha * this.shares[Math.min(look, this.shares.length - 1)]!;
  }

  /** Head trials added to a root by confirmation looks so far. */
  private confirmationTrialsOf(key: string): number {
    const p = this.planned.get(key);
    return p ? p.head - p.firstHead : 0;
  }

  /** Not new: pre-existing when base fails too, not significant when only head ever failed. */
  private decideNotNew(r: AttributedRoot, p: number, reason: string): void {
    const c = this.counts.get(r.key)!;
    if (c.baseFailed > 0) this.decideCounted(r, "pre-existing", p, `pre-existing (${reason})`);
    else this.decideCounted(r, "not-significant", p, `not significant (${reason}; base never failed)`);
  }

  /** One look of each suspect `which` selects: decide those its counts settle, keep the rest. */
  private settle(which: (r: AttributedRoot) => boolean): void {
    const still: AttributedRoot[] = [];
    for (const r of this.suspects) {
      if (!which(r)) {
        still.push(r);
        continue;
      }
      const c = this.counts.get(r.key)!;
      const p = fisherOneSided(c.headFailed, c.headTrials, c.baseFailed, c.baseTrials);
      const outcome = lookOutcome(c, p, this.threshold(this.lookOf.get(r.key) ?? 0));
      if (!outcome) still.push(r);
      else if ("notNew" in outcome) this.decideNotNew(r, p, outcome.notNew);
      else this.decideCounted(r, outcome.status, p, outcome.reason);
    }
    this.suspects = still;
  }

  /** No more confirmation trials for `roots`: decide them. */
  private closeSuspects(roots: AttributedRoot[], why: "no-confirmation" | "max-trials"): void {
    const closing = new Set(roots);
    this.suspects = this.suspects.filter((r) => !closing.has(r));
    for (const r of roots) {
      const c = this.counts.get(r.key)!;
      const p = fisherOneSided(c.headFailed, c.headTrials, c.baseFailed, c.baseTrials);
      const outcome = closingOutcome(c, why);
      if ("notNew" in outcome) this.decideNotNew(r, p, outcome.notNew);
      else this.decideCounted(r, "inconclusive", p, outcome.inconclusive, why);
    }
  }
}

/**
 * The whole sequential decision with a confirmation function standing in for the pipeline (tests, the verdict
 * bench). The pipeline drives `RootDecider` itself.
 */
export async function decideNewRoots(
  head: CheckResult[],
  base: CheckResult[] | undefined,
  policy: VerdictPolicy,
  confirm?: ConfirmFn,
): Promise<RootDecision[]> {
  const decider = new RootDecider(head, base, policy, { canConfirm: !!confirm });
  // In lockstep: every idle unit's request in one confirmation (a round), as the bench counts rounds.
  for (let reqs = decider.requests(); reqs.length > 0 && confirm; reqs = decider.requests()) {
    let batch: ConfirmationBatch;
    try {
      batch = await confirm(reqs.flatMap((r) => r.roots));
    } catch (e) {
      decider.abort(e instanceof Error ? e.message : String(e));
      break;
    }
    for (const req of reqs) decider.observe(req, batch);
  }
  return decider.decisions();
}
