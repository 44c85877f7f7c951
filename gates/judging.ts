/**
 * Parent side of a gate run: the probe session over a live sandbox child, with every observation validated
 * against the gate's JSON Schema (with the `tagged` keyword for values the module returned) before a judge
 * sees it. A missing or malformed observation is an
 * `ObservationError`, which fails whatever check needed it; it never passes one.
 */
import { Ajv, type ValidateFunction } from "ajv";
import type { LiveChild } from "../src/sandbox/index.js";
import { isTagged } from "../src/sandbox/tagged.js";
import type { GateJudge, ProbeSession } from "./types.js";

export class ObservationError extends Error {}

const ajv = new Ajv({ strict: false, allowUnionTypes: true, allErrors: false });
ajv.addKeyword({
  keyword: "tagged",
  schemaType: "boolean",
  errors: false,
  validate: (on: boolean, data: unknown) => !on || isTagged(data),
});
const validators = new Map<string, ValidateFunction>();

/** The compiled schema of one observation of `judge`'s gate (cached per process). */
function observationValidator(judge: GateJudge): ValidateFunction {
  let v = validators.get(judge.id);
  if (!v) {
    v = ajv.compile(judge.observationSchema);
    validators.set(judge.id, v);
  }
  return v;
}

/** A compiled schema outside a gate's one observation shape (e.g. contrast's browser observation). */
export function schemaValidator(schema: Record<string, unknown>): ValidateFunction {
  return ajv.compile(schema);
}

/** Where a schema error sits, for the message (`/calls/1/value: must be …`). */
export function schemaProblem(v: ValidateFunction): string {
  const e = v.errors?.[0];
  return e ? `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}` : "is invalid";
}

export function probeSession(child: LiveChild, judge: GateJudge): ProbeSession {
  const validate = observationValidator(judge);
  return {
    async observe(probes) {
      if (probes.length === 0) return [];
      const answers = await child.request([...probes]);
      if (!Array.isArray(answers) || answers.length !== probes.length)
        throw new ObservationError(
          `the sandbox answered ${Array.isArray(answers) ? answers.length : "no"} observations for ${probes.length} probes`,
        );
      return answers.map((a, i) => {
        if (!a.ok) throw new ObservationError(`collecting probe ${i + 1} failed in the sandbox: ${a.error}`);
        if (!validate(a.obs))
          throw new ObservationError(`observation ${i + 1} is malformed: ${schemaProblem(validate)}`);
        return a.obs;
      });
    },
  };
}

/** The session of a gate that reads its input as a file in the parent: there is no child to ask. */
export const NO_CHILD: ProbeSession = {
  observe() {
    return Promise.reject(new ObservationError("this gate input is read as a file: no sandbox child runs"));
  },
};
