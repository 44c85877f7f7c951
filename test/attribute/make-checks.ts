import type { CheckResult, CheckStatus, TrialMode } from "../../src/model/index.js";

/** Builds a CheckResult the way the grader does; only what a test cares about is given. */
export function check(
  checkId: string,
  status: CheckStatus,
  opts: {
    trial?: number;
    mode?: TrialMode;
    dependsOn?: string[];
    skill?: string;
    line?: number;
    discriminator?: boolean;
    skipReason?: string;
  } = {},
): CheckResult {
  // `<caseId>/<assertionId>`; trigger query ids are their own case.
  const slash = checkId.indexOf("/");
  const caseId = checkId.startsWith("trigger/") ? checkId : checkId.slice(0, slash);
  const assertionId = checkId.startsWith("trigger/") ? checkId : checkId.slice(slash + 1);
  return {
    checkId,
    skill: opts.skill ?? "split-cents",
    caseId,
    assertionId,
    mode: opts.mode ?? "skill",
    trial: opts.trial ?? 0,
    status,
    discriminator: opts.discriminator ?? assertionId.startsWith("D:"),
    message: `${checkId} ${status}`,
    dependsOn: opts.dependsOn ?? [],
    loc: { file: ".agent/evals/split-cents/prompts/split.yaml", line: opts.line ?? 1, column: 3 },
    ...(opts.skipReason ? { skipReason: opts.skipReason } : {}),
  };
}

/**
 * `n` trials of one check, the first `failed` of them failing (indices from `firstTrial`).
 * Each trial gets a passing `trial-ok` too, so the implicit edge is exercised.
 */
export function trials(
  checkId: string,
  failed: number,
  n: number,
  opts: { firstTrial?: number; mode?: TrialMode; skill?: string; line?: number } = {},
): CheckResult[] {
  const out: CheckResult[] = [];
  for (let t = 0; t < n; t++) {
    const trial = (opts.firstTrial ?? 0) + t;
    out.push(check(checkId, t < failed ? "fail" : "pass", { ...opts, trial }));
  }
  return out;
}
