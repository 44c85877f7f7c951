import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { Diagnostic } from "../model/index.js";
import { type PathSegment, pointerToPath, type SourceFile } from "./source-file.js";
import { unknownKeyHint } from "./suggest.js";

// verbose: each error keeps its schema node: an unknown key's message names the keys that schema knows, and a
// `description` (when set) says what a value must be. validateSchema off: every schema compiled here is
// skillgate's own (the shapes and the assertion types' params), checked against the meta-schema by
// test/detect/own-schemas.test.ts; compiling the meta-schema took a run ~0.1 s before its first file was read.
const ajv = new Ajv({
  allErrors: true,
  strict: false,
  allowUnionTypes: true,
  verbose: true,
  validateSchema: false,
});
const compiled = new Map<object, ValidateFunction>();

function compile(schema: object): ValidateFunction {
  let fn = compiled.get(schema);
  if (!fn) {
    fn = ajv.compile(schema);
    compiled.set(schema, fn);
  }
  return fn;
}

/**
 * Validates `value` (found at `basePath` inside `source`) against a JSON Schema; returns located diagnostics.
 * `anyOf` noise is reduced to the branch errors that got furthest, so a message names the real problem.
 */
export function validateAgainst(
  schema: object,
  value: unknown,
  source: SourceFile,
  basePath: readonly PathSegment[] = [],
  code = "schema",
  /** Keys valid beside the schema's own at its top (an assertion's common keys beside its type's params). */
  alsoKnown: readonly string[] = [],
): Diagnostic[] {
  const fn = compile(schema);
  if (fn(value)) return [];
  const errors = withoutPlaceholderEchoes(simplify(fn.errors ?? []));
  return errors.map((e) => toDiagnostic(e, source, basePath, code, alsoKnown));
}

/** `skillgate init`'s placeholders: `TODO-<key>` stands where the author writes `<key>`. */
const PLACEHOLDER = /^TODO-(.+)$/;

function placeholderOf(e: ErrorObject): string | undefined {
  if (e.keyword !== "additionalProperties") return undefined;
  return PLACEHOLDER.exec(String((e.params as { additionalProperty: string }).additionalProperty))?.[1];
}

/**
 * One error per placeholder left: an object holding a `TODO-<key>` is missing `<key>` because of it, so the
 * object's own complaints (a required key, which branch of a oneOf it matches) are the placeholder's echoes.
 */
function withoutPlaceholderEchoes(errors: ErrorObject[]): ErrorObject[] {
  const holders = new Set(errors.filter((e) => placeholderOf(e) !== undefined).map((e) => e.instancePath));
  return errors.filter(
    (e) =>
      placeholderOf(e) !== undefined || !holders.has(e.instancePath) || e.keyword === "additionalProperties",
  );
}

function simplify(errors: ErrorObject[]): ErrorObject[] {
  const anyOfPaths = new Set(errors.filter((e) => e.keyword === "anyOf").map((e) => e.instancePath));
  const out: ErrorObject[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (e.keyword === "anyOf") {
      // Keep the umbrella only when no branch said anything more specific at or below this path.
      const covered = errors.some(
        (s) => s !== e && s.keyword !== "anyOf" && s.instancePath.startsWith(e.instancePath),
      );
      if (covered) continue;
    }
    if (e.keyword === "type" && anyOfPaths.has(e.instancePath)) {
      // One message for "must be string or object" from the branches of an anyOf.
      const types = errors
        .filter((s) => s.keyword === "type" && s.instancePath === e.instancePath)
        .flatMap((s) => [(s.params as { type: string | string[] }).type].flat());
      const key = `${e.instancePath}|type`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ ...e, params: { type: [...new Set(types)] } });
      continue;
    }
    const key = `${e.instancePath}|${e.keyword}|${JSON.stringify(e.params)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(e);
  }
  return out;
}

function toDiagnostic(
  e: ErrorObject,
  source: SourceFile,
  basePath: readonly PathSegment[],
  code: string,
  alsoKnown: readonly string[],
): Diagnostic {
  const path = [...basePath, ...pointerToPath(e.instancePath)];
  const where = path.length ? `\`${path.join(".")}\`` : "the file";
  let message: string;
  let loc = source.locate(path);
  switch (e.keyword) {
    case "additionalProperties": {
      const key = String((e.params as { additionalProperty: string }).additionalProperty);
      loc = source.locateKey([...path, key]);
      const own = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const known = [...own, ...(e.instancePath === "" ? alsoKnown : [])].filter((k) => k !== "$schema");
      const placeholder = placeholderOf(e);
      message = placeholder
        ? `unknown key \`${key}\`${path.length ? ` in ${where}` : ""}: a placeholder \`skillgate init\` left; replace it with \`${placeholder}\` and the value it asks for`
        : `unknown key \`${key}\`${path.length ? ` in ${where}` : ""}${unknownKeyHint(key, known)}`;
      break;
    }
    case "required":
      message = `missing required key \`${(e.params as { missingProperty: string }).missingProperty}\`${path.length ? ` in ${where}` : ""}`;
      break;
    case "enum":
      message = `${where} must be one of: ${((e.params as { allowedValues: unknown[] }).allowedValues ?? []).map((v) => JSON.stringify(v)).join(", ")}`;
      break;
    case "type":
      message = `${where} must be ${[(e.params as { type: string | string[] }).type].flat().join(" or ")}`;
      break;
    case "anyOf":
      message = `${where} has an unsupported shape`;
      break;
    case "pattern": {
      const described = (e.parentSchema as { description?: unknown } | undefined)?.description;
      message =
        typeof described === "string"
          ? `${where} must be ${described} (got ${JSON.stringify(e.data)})`
          : `${where} ${e.message ?? "is invalid"}`;
      break;
    }
    default:
      message = `${where} ${e.message ?? "is invalid"}`;
  }
  return { ...loc, severity: "error", code, message };
}
