import { Ajv } from "ajv";
import { errorOutcome, extractFor, missingValue, outcome, showValue } from "./common.js";
import type { AssertionType } from "./registry.js";

const MAX_ERRORS_SHOWN = 3;

/** The extracted value (default: the JSON in the output) validates against the JSON Schema `value`. */
export const jsonSchema: AssertionType = {
  type: "json-schema",
  schema: {
    type: "object",
    required: ["value"],
    properties: { value: { type: ["object", "boolean"] } },
    additionalProperties: false,
  },
  async evaluate(a, ctx) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    let validate: ReturnType<Ajv["compile"]>;
    try {
      validate = ajv.compile(a.params.value as object);
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
