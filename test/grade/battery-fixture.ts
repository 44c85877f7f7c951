/** A deterministic agent and a two-case suite for battery and export tests. */
import { gradeTrial } from "../../src/grade/grade-trial.js";
import type { CheckResult } from "../../src/model/check.js";
import type { TrialMode, TrialRecord } from "../../src/model/trial.js";
import { asrt, mkCase, mkSuite, mkTrial } from "./helpers.js";

export const TRIALS = 3;

/** The agent: with the skill it gets the cent right; without, it gives the tempting 333 × 3 and rounds. */
export function deterministicAgent(mode: TrialMode, caseId: string, trial: number): TrialRecord {
  const withSkill = mode === "skill";
  const record = (output: string, files: Record<string, string> = {}) =>
    mkTrial({ caseId, mode, trial, output, files, skillsActivated: withSkill ? ["split-cents"] : [] });
  if (caseId === "split-1000-3") {
    return withSkill
      ? record("Parts: 334, 333, 333 (sum 1000)", { "src/split.ts": "const base = Math.floor(total / n);" })
      : record("Parts: 333, 333, 333 for the 1000 cents", { "src/split.ts": "Math.round(total / n)" });
  }
  return withSkill
    ? record(`4 and 3: the sum is 7${trial % 2 === 0 ? " (note: first gets the extra cent)" : ""}`)
    : record("quick answer: 3 and 3, the sum is 6");
}

export const caseA = mkCase("split-1000-3", [
  asrt("mentions-total", "contains", { value: "1000" }),
  asrt("D:no-lost-cent", "not-one-of", { values: [333] }, { extract: "first-number" }),
  asrt("activated", "skill-used"),
  asrt("D:uses-floor", "file-contains", { file: "src/split.ts", value: "Math.floor" }),
]);
export const caseB = mkCase("split-7-2", [
  asrt("D:sum", "regex", { value: "sum is 7" }),
  asrt("explains", "contains", { value: "note" }),
  asrt("terse", "contains", { value: "quick" }),
  asrt("impossible", "contains", { value: "impossible" }),
]);
export const suite = mkSuite([caseA, caseB]);

export async function runBattery(records: TrialRecord[] = []): Promise<CheckResult[]> {
  const checks: CheckResult[] = [];
  for (const mode of ["skill", "baseline"] as const) {
    for (const caseDef of suite.cases) {
      for (let t = 0; t < TRIALS; t++) {
        const trial = deterministicAgent(mode, caseDef.id, t);
        records.push(trial);
        checks.push(...(await gradeTrial({ suite, caseDef, trial, vars: {}, repoDir: "/x", gateSeed: 1 })));
      }
    }
  }
  return checks;
}
