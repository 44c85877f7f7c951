import { type AttributedRoot, attributeRoots, type CheckTally } from "../attribute/roots.js";
import type {
  CheckLevel,
  CheckResult,
  RootStatus,
  SourceLocation,
  TrialMode,
  VerdictPolicy,
} from "../model/index.js";
import { DEFAULT_BASE_DEPTH } from "../settings/defaults.js";
import {
  BASE_TRIALS_PER_HEAD_TRIAL,
  CONFIRMATION_LOOKS,
  FUTILITY_EFFECT,
  FUTILITY_MIN_BASE_TRIALS,
  FUTILITY_MIN_TRIALS,
  FUTILITY_RATIO,
  LOOK_ALPHA_SHARES,
} from "./policy.js";
import { fisherOneSided } from "./stats.js";

/**
 * Which roots are new: head vs base, per root check id, with an exact test on per-trial outcomes.
 *
 * Test: one-sided Fisher exact test (head fails more often than base) on the trials in which the check was
 * observed on its own (passed, or failed as a root; cascades, skips and errors are not observations of it).
 *
 * A root that could not be evaluated at head (any trial `error`: unknown gate, bad regex, crashed oracle …) is an
 * `error` root whatever base shows: an error is never a pass, and never "pre-existing".
 *
 * Family-wise α across the PR (Bonferroni over checks and looks, with Tarone's refinement): the family is every
 * check observed in both arms that failed (as a root) in either arm — m of them; a check failing in neither arm
 * has a zero margin and can never reach significance, so it spends no α. Suspects are re-tested at no more than
 * four looks (the first batch and up to three confirmation rounds), a group-sequential design whose head sizes
 * are fixed from the first batch's size alone (`CONFIRMATION_LOOKS`: 5, 9, 22, 60 head trials from a first batch
 * of 5, capped at `maxConfirmationTrials` extra). The base arm starts with every trial the default branch stored
 * (`baseDepth`, free to the PR), is filled to `baseDepth` at the first confirmation look when it was not stored,
 * and kept at `BASE_TRIALS_PER_HEAD_TRIAL` times the head arm. Look k may spend the share `LOOK_ALPHA_SHARES[k]`
 * of α/m (renormalised over the looks the design has): a root is `new` when p ≤ α·share_k/m at some look k, so the
 * chance that an A/A PR shows any new root is ≤ α (measured in `bench/verdict.ts` and end to end in
 * `bench/verdict-e2e.ts`).
 *
 * Futility is Wald's: at every look, a suspect whose head trials favour "head fails as often as base" over "head
 * fails `FUTILITY_EFFECT` more often" by 1/`FUTILITY_RATIO` to 1, with `FUTILITY_MIN_BASE_TRIALS` base trials, is not new — `pre-existing` when base fails too, `not-significant`
 * when base never failed (a flake seen at head only). With at least `FUTILITY_MIN_TRIALS` trials per arm, a suspect
 * that head fails at most as often as base is not new either (Wald's ratio cannot settle a check failing nearly
 * always in both arms). Stopping for futility never raises the false-"new" rate.
 * At the last look, a suspect whose head trials favour the rise by as much is `inconclusive` (it fails the
 * check by default), any other is not new. When confirmation trials cannot run — none allowed, the budget is
 * spent, or the runner failed — a suspect that head fails proportionally more often than base is `inconclusive`.
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
  /** What the check looks at (assertion roots). */
  level?: CheckLevel;
  /** Every failed head trial of this root was an `error` (could not be evaluated), none a plain failure. */
  errorOnly: boolean;
}

/** A root the decider needs more trials of. */
export interface RootRef {
  key: string;
  skill: string;
  mode: TrialMode;
  checkId: string;
  /** The case (or trigger query) whose trials observe it. */
  caseId: string;
}

/** A suspect of a confirmation request: the trials to add to each arm of its case (or trigger query). */
export interface ConfirmationRoot extends RootRef {
  extraTrials: { head: number; base: number };
}

/** What the decider asks the pipeline to run next for one unit: more trials of its suspects, in both arms. */
export interface ConfirmationRequest {
  /** The unit (`skill|mode|case or query id`) whose trials these are. */
  unit: string;
  /** 1-based index of the look these trials feed (the first batch is look 1). */
  look: number;
  /** Each suspect with the trials to add to it per arm (the base arm kept ahead: `BASE_TRIALS_PER_HEAD_TRIAL`). */
  roots: ConfirmationRoot[];
}

/** The unit whose trials observe a root: its case, or its trigger query (a trigger check's id is its query's). */
export function unitOfRoot(r: Pick<RootRef, "skill" | "mode" | "checkId" | "caseId">): string {
  return `${r.skill}|${r.mode}|${r.mode === "trigger" ? r.checkId : r.caseId}`;
}

/** The graded checks of one confirmation batch, per arm. */
export interface ConfirmationBatch {
  head: CheckResult[];
  base: CheckResult[];
}

/** A stand-in for the pipeline's confirmation stage (tests and the verdict bench): one request's suspects. */
export type ConfirmFn = (roots: ConfirmationRoot[]) => Promise<ConfirmationBatch>;

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

/** Failures and observations that count for the test: an error is neither a pass nor a failure. */
const failedOf = (t: CheckTally | undefined): number => (t ? t.failedAsRoot - t.erroredAsRoot : 0);
const observedOf = (t: CheckTally | undefined): number => (t ? t.observed - t.erroredAsRoot : 0);

/**
 * Head trials at each confirmation look (cumulative), from the first batch's head trials: `CONFIRMATION_LOOKS`
 * times it, rounded, capped at `maxExtra` more, strictly growing (a look that would add nothing is dropped).
 * E.g. 5 and 55 → 9, 22, 60; 3 and 55 → 5, 13, 36; 5 and 10 → 9, 15.
 */
export function confirmationSchedule(startTrials: number, maxExtra: number): number[] {
  const sizes: number[] = [];
  const first = Math.max(1, startTrials);
  let last = first;
  for (const factor of CONFIRMATION_LOOKS) {
    const size = Math.min(first + maxExtra, Math.max(last + 1, Math.round(first * factor)));
    if (size <= last) break;
    sizes.push(size);
    last = size;
  }
  return sizes;
}

/** The α share of each of `looks` looks: `LOOK_ALPHA_SHARES` renormalised over the looks a design has. */
export function lookAlphaShares(looks: number): number[] {
  const shares = LOOK_ALPHA_SHARES.slice(0, Math.max(1, Math.min(looks, LOOK_ALPHA_SHARES.length)));
  const total = shares.reduce((x, y) => x + y, 0);
  return shares.map((x) => x / total);
}

const fmtP = (p: number): string => (p < 0.0001 ? p.toExponential(1) : String(Number(p.toPrecision(2))));

function checkPolicy(policy: VerdictPolicy): void {
  if (!(policy.alpha > 0 && policy.alpha < 1))
    throw new RangeError(`verdict.alpha must be in (0, 1), got ${policy.alpha}`);
  if (!Number.isInteger(policy.maxConfirmationTrials) || policy.maxConfirmationTrials < 0) {
    throw new RangeError(
      `verdict.maxConfirmationTrials must be a non-negative integer, got ${policy.maxConfirmationTrials}`,
    );
  }
}

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
      if (p <= this.threshold(this.lookOf.get(r.key) ?? 0))
        this.decideCounted(r, "new", p, "new (fails more often at head)");
      else if (c.baseTrials >= FUTILITY_MIN_BASE_TRIALS && futilityLogRatio(c) <= Math.log(FUTILITY_RATIO))
        this.decideNotNew(
          r,
          p,
          `the head trials favour no rise over a rise of ${FUTILITY_EFFECT} by ${ODDS}:1 or more`,
        );
      else if (
        Math.min(c.headTrials, c.baseTrials) >= FUTILITY_MIN_TRIALS &&
        c.headFailed * c.baseTrials <= c.baseFailed * c.headTrials
      )
        this.decideNotNew(r, p, `fails at base at least as often, ${FUTILITY_MIN_TRIALS}+ trials per arm`);
      else still.push(r);
    }
    this.suspects = still;
  }

  /** No more confirmation trials for `roots`: decide them. */
  private closeSuspects(roots: AttributedRoot[], why: NonNullable<RootDecision["undecidedBecause"]>): void {
    const closing = new Set(roots);
    this.suspects = this.suspects.filter((r) => !closing.has(r));
    for (const r of roots) {
      const c = this.counts.get(r.key)!;
      const p = fisherOneSided(c.headFailed, c.headTrials, c.baseFailed, c.baseTrials);
      if (c.headFailed * c.baseTrials <= c.baseFailed * c.headTrials)
        this.decideNotNew(r, p, "fails at base at least as often");
      else if (why === "no-confirmation")
        this.decideCounted(
          r,
          "inconclusive",
          p,
          "inconclusive (too few trials to decide; no confirmation trials allowed)",
          why,
        );
      else if (futilityLogRatio(c) >= -Math.log(FUTILITY_RATIO))
        this.decideCounted(
          r,
          "inconclusive",
          p,
          `inconclusive (the head trials favour a rise of ${FUTILITY_EFFECT} by ${ODDS}:1 or more, but p stayed above the threshold; confirmation budget spent)`,
          why,
        );
      else this.decideNotNew(r, p, "not significantly more often at head after all confirmation trials");
    }
  }
}

/** The odds the futility boundary asks for, as a reason states them (5 for a ratio of 0.2). */
const ODDS = Math.round(1 / FUTILITY_RATIO);

/**
 * Wald's log likelihood ratio of the head trials: head failing at the base rate + `FUTILITY_EFFECT` against head
 * failing at the base rate, the base rate estimated from the base trials with half a failure and half a pass added
 * (so a base that never failed is not taken for one that cannot).
 */
function futilityLogRatio(c: {
  headFailed: number;
  headTrials: number;
  baseFailed: number;
  baseTrials: number;
}): number {
  const b = (c.baseFailed + 0.5) / (c.baseTrials + 1);
  const a = Math.min(1 - 1e-3, b + FUTILITY_EFFECT);
  return c.headFailed * Math.log(a / b) + (c.headTrials - c.headFailed) * Math.log((1 - a) / (1 - b));
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
