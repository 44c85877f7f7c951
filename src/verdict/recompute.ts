/**
 * Recomputing a stored report's statistical verdict from its per-trial evidence, under a given (the base's)
 * policy. The fork-safe second half of a PR check (`mode: report`) must not post a verdict it cannot trust: it
 * replays the sequential decision — one family α over the whole PR, the first batch, then each confirmation look
 * in the order the trials were run — from the checks the report recorded, and compares what it finds with what
 * the report claims.
 */
import type {
  CheckResult,
  EvidenceCheck,
  Report,
  Root,
  SkillReport,
  Verdict,
  VerdictPolicy,
} from "../model/index.js";
import { combineVerdicts, isBlocking } from "./decide.js";
import { type ConfirmationBatch, RootDecider, type RootDecision } from "./new-roots.js";

/** What a report keeps per skill so another job can recompute its decision. */
export type SkillEvidence = NonNullable<SkillReport["evidence"]>;

/** Longest message kept per evidence check (the decision needs the check, not the prose). */
const EVIDENCE_MESSAGE_CHARS = 200;

export function toEvidence(checks: CheckResult[]): EvidenceCheck[] {
  return checks.map((c) => ({
    checkId: c.checkId,
    skill: c.skill,
    caseId: c.caseId,
    assertionId: c.assertionId,
    mode: c.mode,
    trial: c.trial,
    status: c.status,
    discriminator: c.discriminator,
    message:
      c.message.length > EVIDENCE_MESSAGE_CHARS
        ? `${c.message.slice(0, EVIDENCE_MESSAGE_CHARS - 1)}…`
        : c.message,
    dependsOn: c.dependsOn,
    loc: c.loc,
  }));
}

const asChecks = (xs: EvidenceCheck[]): CheckResult[] => xs as CheckResult[];

/** The unit a confirmation re-runs: a case (its skill-mode trials) or a trigger query, of one skill. */
const unitOf = (c: { skill: string; mode: string; caseId: string; checkId: string }) =>
  c.mode === "trigger" ? `${c.skill}|trigger|${c.checkId}` : `${c.skill}|skill|${c.caseId}`;

/**
 * The decisions the evidence of every skill supports under `policy`. Confirmation trials the policy asks for and
 * the report does not hold end the replay (`missing` says which): the suspects then stay undecided, never pass.
 */
export function recomputeDecisions(
  evidence: Record<string, SkillEvidence>,
  policy: VerdictPolicy,
): { decisions: RootDecision[]; missing?: string } {
  /** Whether a check's trial was in its arm's first batch (some cases' first batch held more: stored trials). */
  const inFirst = (arm: "head" | "base") => (c: EvidenceCheck) => {
    const first = evidence[c.skill]?.firstBatch;
    if (!first) return false;
    if (c.mode === "trigger") return c.trial < first.triggerRuns;
    const deeper = arm === "head" ? first.headPerCase : first.basePerCase;
    return c.trial < (deeper?.[c.caseId] ?? first.perCase);
  };
  const skills = Object.values(evidence);
  const head = skills.flatMap((e) => e.head);
  const hasBase = skills.some((e) => e.base);
  const base = skills.flatMap((e) => e.base ?? []);
  const decider = new RootDecider(
    asChecks(head.filter(inFirst("head"))),
    hasBase ? asChecks(base.filter(inFirst("base"))) : undefined,
    policy,
    { canConfirm: hasBase },
  );
  // Per arm and unit: the trial indices beyond the first batch, in the order they were run, not yet replayed.
  const pending = (checks: EvidenceCheck[], arm: "head" | "base") => {
    const byUnit = new Map<string, number[]>();
    const first = inFirst(arm);
    for (const c of checks) {
      if (first(c) || c.mode === "baseline") continue;
      const u = unitOf(c);
      const list = byUnit.get(u) ?? [];
      if (!list.includes(c.trial)) list.push(c.trial);
      byUnit.set(u, list);
    }
    for (const l of byUnit.values()) l.sort((a, b) => a - b);
    return byUnit;
  };
  const queues = { head: pending(head, "head"), base: pending(base, "base") };
  let missing: string | undefined;
  // Units replayed in lockstep: each suspect's decision depends on its own unit's trials and looks only.
  for (let reqs = decider.requests(); reqs.length > 0 && !missing; reqs = decider.requests()) {
    for (const req of reqs) {
      const batch: ConfirmationBatch = { head: [], base: [] };
      for (const arm of ["head", "base"] as const) {
        const checks = arm === "head" ? head : base;
        // Suspects of one case share its trials: the most any of them asks for.
        const wanted = Math.max(0, ...req.roots.map((r) => r.extraTrials[arm]));
        const queue = queues[arm].get(req.unit) ?? [];
        if (queue.length < wanted) {
          missing = `the report holds ${queue.length} further ${arm} trial(s) of ${req.unit.split("|").join(" ")}; the policy's look ${req.look} needs ${wanted}`;
          break;
        }
        const trials = new Set(queue.splice(0, wanted));
        batch[arm].push(
          ...asChecks(
            checks.filter((c) => c.mode !== "baseline" && unitOf(c) === req.unit && trials.has(c.trial)),
          ),
        );
      }
      if (missing) {
        decider.abort(missing);
        break;
      }
      decider.observe(req, batch);
    }
  }
  return { decisions: decider.decisions(), ...(missing ? { missing } : {}) };
}

/** Root kinds a decision stands behind. */
const STATISTICAL = new Set(["assertion", "gate", "trigger"]);

/**
 * Where a stored report's statistical roots disagree with the decisions its evidence supports under `policy`:
 * one sentence per disagreement (a root missing, another status, a root the evidence does not support, a skill
 * without evidence). Empty when the report's decisions follow from its trials.
 */
export function evidenceDisagreements(
  report: Report,
  policy: VerdictPolicy,
  cells?: { alpha: number },
): string[] {
  // A matrix: each cell decided on its own, at its share of the PR's α (src/settings/matrix.ts).
  if (report.skills.some((s) => s.cell)) {
    const names = [...new Set(report.skills.map((s) => s.cell))];
    const cellPolicy = cells ? { ...policy, alpha: cells.alpha } : policy;
    return names.flatMap((name) =>
      cellDisagreements({ ...report, skills: report.skills.filter((s) => s.cell === name) }, cellPolicy).map(
        (m) => (name ? `cell ${name}: ${m}` : m),
      ),
    );
  }
  return cellDisagreements(report, policy);
}

function cellDisagreements(report: Report, policy: VerdictPolicy): string[] {
  const out: string[] = [];
  const evidence: Record<string, SkillEvidence> = {};
  for (const s of report.skills) {
    if (s.evidence) evidence[s.name] = s.evidence;
    else if (s.roots.some((r) => STATISTICAL.has(r.kind)) || s.discriminator || s.trigger)
      out.push(`${s.name}: the report carries no per-trial evidence, so its verdict cannot be recomputed`);
  }
  const { decisions, missing } = recomputeDecisions(evidence, policy);
  if (missing) out.push(missing);
  for (const s of report.skills.filter((x) => x.evidence)) {
    const claimed = new Map<string, Root>(
      s.roots.filter((r) => STATISTICAL.has(r.kind) || r.id.endsWith("/trial-ok")).map((r) => [r.id, r]),
    );
    for (const d of decisions.filter((x) => x.skill === s.name)) {
      // A trigger run that errored is counted in the skill's errors, not as a root of its own.
      if (d.errorOnly && d.mode === "trigger") continue;
      const root = claimed.get(d.checkId);
      if (!root)
        out.push(`${s.name}: ${d.checkId} is ${d.status} by the evidence but missing from the report`);
      else if (root.status !== d.status)
        out.push(`${s.name}: ${d.checkId} is ${d.status} by the evidence; the report says ${root.status}`);
      claimed.delete(d.checkId);
    }
    for (const r of claimed.values())
      out.push(`${s.name}: ${r.id} (${r.status}) is in the report, but the evidence has no such root`);
  }
  return out;
}

const SEVERITY: Record<Verdict, number> = { pass: 0, fail: 1, error: 2 };
/** A claimed verdict is believed only when it is no better than what its roots and errors imply. */
const better = (claimed: Verdict, implied: Verdict) => SEVERITY[claimed] < SEVERITY[implied];

/** The verdict a skill's own roots and errors imply: a blocking failure fails, a blocking error errs. */
function impliedSkillVerdict(s: SkillReport): Verdict {
  const blocking = s.roots.filter((r) => r.blocking);
  if (blocking.some((r) => r.kind !== "error" && r.status !== "error")) return "fail";
  return blocking.length > 0 || s.errors.length > 0 ? "error" : "pass";
}

/**
 * Everything in a stored report that does not follow from its records under `policy`: the statistical roots its
 * evidence does not support (`evidenceDisagreements`), a statistical root whose blocking flag the policy does not
 * give it, blocking roots missing from a skill's or the report's lists, and a skill's or the report's verdict
 * better than its roots, errors and skills allow. Roots that are no statistics (a weakened suite, a threshold, a
 * validation error) cannot be recomputed without the checkout: they are taken as the report has them, and they
 * count toward the verdict. Empty when the report is consistent.
 */
export function verdictDisagreements(report: Report, policy: VerdictPolicy): string[] {
  const out = evidenceDisagreements(report, policy);
  const evidence: Record<string, SkillEvidence> = {};
  for (const s of report.skills) if (s.evidence) evidence[s.name] = s.evidence;
  const decided = new Map(
    recomputeDecisions(evidence, policy).decisions.map((d) => [`${d.skill}\0${d.checkId}`, d]),
  );
  const listed = new Set(report.blockingRoots.map((r) => `${r.skill}\0${r.id}`));
  for (const s of report.skills) {
    const blockingIds = new Set(s.blockingRoots.map((r) => r.id));
    for (const r of s.roots) {
      const d = decided.get(`${s.name}\0${r.id}`);
      if (d && !(d.errorOnly && d.mode === "trigger") && r.blocking !== isBlocking(d, policy))
        out.push(
          `${s.name}: ${r.id} (${d.status}) is ${isBlocking(d, policy) ? "blocking" : "not blocking"} under the policy; the report says ${r.blocking ? "blocking" : "not blocking"}`,
        );
      if (!r.blocking) continue;
      if (!blockingIds.has(r.id))
        out.push(`${s.name}: blocking root ${r.id} is missing from its blockingRoots`);
      if (!listed.has(`${s.name}\0${r.id}`))
        out.push(`${s.name}: blocking root ${r.id} is missing from the report's blockingRoots`);
    }
    const implied = impliedSkillVerdict(s);
    if (better(s.verdict, implied))
      out.push(`${s.name}: verdict ${s.verdict}, but its roots and errors make it ${implied}`);
  }
  const repositoryBlocks = (report.policy?.roots ?? []).some((r) => r.blocking);
  const implied = combineVerdicts(
    [
      ...report.skills.map((s) =>
        better(s.verdict, impliedSkillVerdict(s)) ? impliedSkillVerdict(s) : s.verdict,
      ),
      ...(repositoryBlocks ? (["fail"] as const) : []),
    ],
    report.errors,
  );
  if (better(report.verdict, implied))
    out.push(
      `the report's verdict is ${report.verdict}, but its skills, policy roots and errors make it ${implied}`,
    );
  return out;
}
