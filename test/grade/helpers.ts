import type { Assertion, Case, Suite } from "../../src/model/suite.js";
import type { TrialRecord } from "../../src/model/trial.js";
import { ZERO_USAGE } from "../../src/model/trial.js";

export const SUITE_FILE = ".agent/evals/split-cents/prompts/split.yaml";

let line = 10;
/** An assertion as the suite loader produces it; each gets its own line so messages can be located. */
export function asrt(
  id: string,
  rawType: string,
  params: Record<string, unknown> = {},
  extra: Partial<Assertion> = {},
): Assertion {
  const negate = rawType.startsWith("not-") && !["not-one-of", "not-skill-used"].includes(rawType);
  return {
    id,
    rawType,
    type: negate ? rawType.slice(4) : rawType,
    negate,
    discriminator: id.startsWith("D:"),
    dependsOn: [],
    params,
    loc: { file: SUITE_FILE, line: line++, column: 5 },
    ...extra,
  };
}

export function mkCase(id: string, assertions: Assertion[], vars: Record<string, unknown> = {}): Case {
  return {
    id,
    prompt: `prompt of ${id}`,
    files: [],
    assertions,
    vars,
    loc: { file: SUITE_FILE, line: 1, column: 1 },
  };
}

export function mkSuite(cases: Case[], vars: Record<string, unknown> = {}): Suite {
  return {
    skill: "split-cents",
    root: ".agent/evals/split-cents",
    formats: ["seed"],
    meta: {
      thresholds: {},
      vars,
      loc: { file: ".agent/evals/split-cents/meta.json", line: 1, column: 1 },
      keyLoc: {},
    },
    cases,
    sourceFiles: [],
  };
}

export function mkTrial(partial: Partial<TrialRecord> = {}): TrialRecord {
  return {
    key: "k",
    skill: "split-cents",
    caseId: "c1",
    mode: "skill",
    trial: 0,
    output: "",
    toolCalls: [],
    skillsActivated: [],
    files: {},
    usage: ZERO_USAGE,
    durationMs: 1000,
    ...partial,
  };
}
