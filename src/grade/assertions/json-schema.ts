import { Ajv } from "ajv";
import { errorOutcome, extractFor, missingValue, outcome, showValue } from "./common.js";
import type { AssertionType } from "./registry.js";

const MAX_ERRORS_SHOWN = 3;
/** Compiled validators by schema text: the same assertion is evaluated on every trial. */
const MAX_CACHED_SCHEMAS = 256;
const compiled = new Map<string, ReturnType<Ajv["compile"]>>();

function compile(schema: object): ReturnType<Ajv["compile"]> {
  const key = JSON.stringify(schema);
  let v = compiled.get(key);
  if (!v) {
    // A fresh instance per schema: two suites may reuse one `$id` for different schemas.
    v = new Ajv({ allErrors: true, strict: false }).compile(schema);
    if (compiled.size >= MAX_CACHED_SCHEMAS) compiled.clear();
    compiled.set(key, v);
  }
  return v;
}

/** The extracted value (default: the JSON in the output) validates against the JSON Schema `value`. */
export const jsonSchema: AssertionType = {
  type: "json-schema",
  level: "outcome",
  schema: {
    type: "object",
    required: ["value"],
    properties: { value: { type: ["object", "boolean"] } },
    additionalProperties: false,
  },
  async evaluate(a, ctx) {
    let validate: ReturnType<Ajv["compile"]>;
    try {
      validate = compile(a.params.value as object);
    } catch (e) {
      return errorOutcome(`invalid JSON Schema in value: ${(e as Error).message}`);
    }
    const expected = `${a.extract ?? "JSON output"} to match the schema`;
    const got = extractFor(a, ctx, "json");
    if (!got.ok) return missingValue(got.reason, expected);
    let value = got.value;
    if (typeof value === "string" && a.extract && a.extract !== "text") {
      try {
        value = JSON.parse(value);
      } catch {
        return missingValue(`${got.description} ${showValue(value)} is not JSON`, expected);
      }
    }
    const ok = validate(value) as boolean;
    const errors = (validate.errors ?? [])
      .slice(0, MAX_ERRORS_SHOWN)
      .map((e) => `${e.instancePath || "/"} ${e.message ?? "invalid"}`);
    return outcome(
      ok,
      expected,
      ok ? `${got.description} valid` : `${got.description} invalid: ${errors.join("; ")}`,
    );
  },
};
