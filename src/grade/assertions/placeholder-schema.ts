/**
 * Placeholders in assertion params (docs/assertions.md): any value may be one `$placeholder` naming a variable that
 * holds it (`values: $clusters`, `range: $r`, `range: ["$lo", "$hi"]`, `scope.values: $clusters`, `count: $n`).
 * Before grading (discovery, `validate`) the params are checked against the type's schema with every non-string
 * position also accepting such a string; once the placeholders resolve the values are checked against the
 * type's own schema (`resolvedParamsProblems`).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";

/** A string that is exactly one placeholder (what `resolvePlaceholders` replaces with the variable's value). */
const WHOLE_PLACEHOLDER = "^\\$[A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z0-9_]+|\\[\\d+\\])*$";

const PLACEHOLDER = {
  type: "string",
  pattern: WHOLE_PLACEHOLDER,
  description: "one `$placeholder` naming a variable that holds it",
} as const;

type Schema = Record<string, unknown>;

function isSchema(v: unknown): v is Schema {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

/** A schema node that also accepts a whole placeholder wherever it does not already take a string. */
function tolerant(node: unknown): unknown {
  if (!isSchema(node)) return node;
  const out: Schema = { ...node };
  if (isSchema(out.properties))
    out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [k, tolerant(v)]));
  if (isSchema(out.items)) out.items = tolerant(out.items);
  if (isSchema(out.additionalProperties)) out.additionalProperties = tolerant(out.additionalProperties);
  for (const k of ["anyOf", "oneOf"] as const)
    if (Array.isArray(out[k])) out[k] = (out[k] as unknown[]).map(tolerant);
  const types = [out.type].flat().filter((t) => typeof t === "string");
  const takesStrings = types.includes("string") && out.enum === undefined;
  const constrained = types.length > 0 || out.enum !== undefined;
  return constrained && !takesStrings ? { anyOf: [out, PLACEHOLDER] } : out;
}

const tolerantSchemas = new WeakMap<object, object>();

/** The params schema `validate` checks before placeholders resolve: the params object itself is never one. */
export function placeholderTolerant(schema: object): object {
  let s = tolerantSchemas.get(schema);
  if (!s) {
    const top = schema as Schema;
    s = isSchema(top.properties)
      ? {
          ...top,
          properties: Object.fromEntries(Object.entries(top.properties).map(([k, v]) => [k, tolerant(v)])),
        }
      : schema;
    tolerantSchemas.set(schema, s);
  }
  return s;
}

const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true });
const compiled = new WeakMap<object, ValidateFunction>();

/** What is wrong with params whose placeholders have resolved, by the type's own schema (empty when valid). */
export function schemaProblems(schema: object, params: unknown): string[] {
  let fn = compiled.get(schema);
  if (!fn) {
    fn = ajv.compile(schema);
    compiled.set(schema, fn);
  }
  if (fn(params)) return [];
  return (fn.errors ?? []).filter((e) => e.keyword !== "anyOf" && e.keyword !== "oneOf").map(describe);
}

function describe(e: ErrorObject): string {
  const at = e.instancePath ? `\`${e.instancePath.slice(1).replace(/\//g, ".")}\`` : "the params";
  if (e.keyword === "additionalProperties")
    return `unknown key \`${(e.params as { additionalProperty: string }).additionalProperty}\` in ${at}`;
  if (e.keyword === "required")
    return `missing required key \`${(e.params as { missingProperty: string }).missingProperty}\``;
  return `${at} ${e.message ?? "is invalid"}`;
}
