import type { Assertion, Case, Suite, TriggerQuery } from "../../src/model/index.js";

const ROOT = ".agent/evals/split-cents";

/** An assertion as the suite loader normalises it (`not-` prefix → negate). */
export function assertion(
  id: string,
  rawType: string,
  params: Record<string, unknown> = {},
  line = 5,
  file = `${ROOT}/prompts/split.yaml`,
): Assertion {
  const negate = rawType.startsWith("not-");
  return {
    id,
    rawType,
    type: negate ? rawType.slice(4) : rawType,
    negate,
    discriminator: id.startsWith("D:") || params.discriminator === true,
    dependsOn: [],
    params,
    loc: { file, line, column: 5 },
  };
}

export function caseOf(id: string, assertions: Assertion[], file = `${ROOT}/prompts/${id}.yaml`): Case {
  return {
    id,
    prompt: `prompt of ${id}`,
    files: [],
    assertions,
    vars: {},
    loc: { file, line: 1, column: 1 },
  };
}

export function query(prompt: string, line: number): TriggerQuery {
  return { prompt, weight: 1, loc: { file: `${ROOT}/trigger-eval.json`, line, column: 5 } };
}

export function suite(
  cases: Case[],
  opts: {
    thresholds?: Suite["meta"]["thresholds"];
    trials?: number;
    fire?: TriggerQuery[];
    noFire?: TriggerQuery[];
    extraFiles?: string[];
  } = {},
): Suite {
  const meta = `${ROOT}/meta.json`;
  return {
    skill: "split-cents",
    root: ROOT,
    formats: ["seed"],
    meta: {
      thresholds: opts.thresholds ?? {},
      ...(opts.trials !== undefined ? { trials: opts.trials } : {}),
      vars: {},
      loc: { file: meta, line: 1, column: 1 },
      // As the loader records them: only for keys present in the file.
      keyLoc: Object.fromEntries(
        Object.entries({
          "thresholds.discriminatorPassRate": 5,
          "thresholds.triggerRecall": 8,
          trials: 3,
        })
          .filter(([k]) =>
            k === "trials"
              ? opts.trials !== undefined
              : opts.thresholds?.[k.slice(11) as "triggerRecall"] !== undefined,
          )
          .map(([k, line]) => [k, { file: meta, line, column: 5 }]),
      ),
    },
    cases,
    ...(opts.fire || opts.noFire
      ? {
          trigger: {
            shouldFire: opts.fire ?? [],
            shouldNotFire: opts.noFire ?? [],
            loc: { file: `${ROOT}/trigger-eval.json`, line: 1, column: 1 },
          },
        }
      : {}),
    sourceFiles: [
      meta,
      ...cases.map((c) => c.loc.file),
      ...(opts.fire || opts.noFire ? [`${ROOT}/trigger-eval.json`] : []),
      ...(opts.extraFiles ?? []),
    ],
  };
}
