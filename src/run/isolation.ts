/**
 * Whether a run may go on at the isolation this machine reaches: a pure decision over the detected level and the
 * settings. The Action requires the strongest level (`uid+namespaces`) unless the trusted config accepts less
 * (`isolation.allowWeaker: true`); a refused run ends in `error` before any untrusted code runs. A local run goes
 * on at any level, with a loud warning when it is weaker.
 */
import type { IsolationLevel, IsolationReport, Settings } from "../model/index.js";

export const REQUIRED_ISOLATION: IsolationLevel = "uid+namespaces";

/** What the runner needs to reach the strongest level (README "Isolation"). */
const HOW_TO_ISOLATE =
  "install bubblewrap (apt-get install bubblewrap) and run skillgate as root (sudo; the Action does it itself where the runner user has password-less sudo, as on GitHub-hosted runners), or accept weaker isolation in the base branch's .skillgate.yml (isolation: {allowWeaker: true})";

/** A run the Action may not start: untrusted code would run less isolated than required. */
export class IsolationRefused extends Error {
  constructor(readonly isolation: IsolationReport) {
    super(
      `isolation: this runner reaches only "${isolation.level}" (${isolation.reason}), and the base's configuration does not accept less than "${isolation.required}": ${HOW_TO_ISOLATE}`,
    );
  }
}

export type IsolationDecision =
  | { go: true; report: IsolationReport; warning?: string }
  | { go: false; refused: IsolationRefused };

export function decideIsolation(
  detected: Pick<IsolationReport, "level" | "reason" | "resources">,
  settings: Pick<Settings, "isolation">,
): IsolationDecision {
  const report: IsolationReport = {
    level: detected.level,
    reason: detected.reason,
    required: REQUIRED_ISOLATION,
    ...(detected.resources && detected.level !== "none" ? { resources: detected.resources } : {}),
  };
  if (detected.level === REQUIRED_ISOLATION) return { go: true, report };
  const policy = settings.isolation ?? { required: false, allowWeaker: false };
  if (policy.required && !policy.allowWeaker) return { go: false, refused: new IsolationRefused(report) };
  const weakerAccepted = policy.allowWeaker ? "config" : "local run";
  return {
    go: true,
    report: { ...report, weakerAccepted },
    warning: `WEAKER ISOLATION: untrusted code (gate modules, predicates, oracles, agents) runs at "${detected.level}", not "${REQUIRED_ISOLATION}": ${detected.reason}. To isolate fully: ${HOW_TO_ISOLATE.split(", or")[0]}.`,
  };
}
