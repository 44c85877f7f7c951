// The JSON Schemas of the files skillgate reads (`.skillgate.yml`, SKILL.md frontmatter, the seed suite formats),
// derived from their TypeScript types (src/model/files.ts, `SkillgateConfig` in src/model/settings.ts) with
// ts-json-schema-generator, as scripts/report-schema.mjs does for the stored report: one source per shape.
// Usage:
//   node scripts/shape-schemas.mjs          write src/detect/shapes.schema.json
//   node scripts/shape-schemas.mjs --check  exit 1 when the committed schemas differ from the types (test/detect)
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { createGenerator } from "ts-json-schema-generator";

const root = resolve(import.meta.dirname, "..");
export const SHAPES_FILE = resolve(root, "src/detect/shapes.schema.json");

/** Each shape's type, by the file that declares it. */
const SHAPES = {
  "src/model/settings.ts": ["SkillgateConfig"],
  "src/model/files.ts": [
    "FrontmatterShape",
    "MetaShape",
    "CaseShape",
    "AssertionShape",
    "AssertionFileShape",
    "TriggerEvalShape",
    "WazaTriggerShape",
  ],
};

/**
 * What the generator writes, as the validator's messages need it: `@asType integer` becomes the type (JSDoc's own
 * `@type` is TypeScript's); an `enum` loses its `type` (a non-string would get two messages, "must be string" and
 * "must be one of"); an `anyOf` of bare types is one `type` list ("must be object or string", as ajv words it);
 * empty `definitions` and `additionalProperties: {}` (an index signature: any key) go.
 */
function tidy(node) {
  if (Array.isArray(node)) return node.map(tidy);
  if (!node || typeof node !== "object") return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, tidy(v)]));
  if ("asType" in out) {
    out.type = out.asType;
    delete out.asType;
  }
  if ("enum" in out && out.type === "string") delete out.type;
  const empty = (v) => v && typeof v === "object" && Object.keys(v).length === 0;
  for (const k of ["definitions", "additionalProperties"]) if (empty(out[k])) delete out[k];
  if (out.anyOf?.every((b) => Object.keys(b).join() === "type" && typeof b.type === "string")) {
    out.type = out.anyOf.map((b) => b.type);
    delete out.anyOf;
  }
  return out;
}

/**
 * The schemas as committed: one strict draft-07 schema per shape, every type inline, pretty-printed. `from`: the
 * folder holding src/model/ and tsconfig.json (the repository; a test gives a changed copy).
 */
export function shapeSchemasText(from = root) {
  const schemas = {};
  for (const [path, types] of Object.entries(SHAPES)) {
    const generator = createGenerator({
      path: resolve(from, path),
      tsconfig: resolve(from, "tsconfig.json"),
      topRef: false,
      expose: "none",
      // descriptions only where a tag writes one: a pattern's message uses it
      jsDoc: "basic",
      extraTags: ["asType", "anyOf"],
      // a key the type does not name is refused, unless the type has an index signature
      additionalProperties: false,
      skipTypeCheck: true,
    });
    for (const type of types) schemas[type] = tidy(generator.createSchema(type));
  }
  return `${JSON.stringify(schemas, null, 2)}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = shapeSchemasText();
  if (process.argv.includes("--check")) {
    // compared as JSON: the formatter lays the committed file out its own way
    if (JSON.stringify(JSON.parse(readFileSync(SHAPES_FILE, "utf8"))) !== JSON.stringify(JSON.parse(text))) {
      console.error("src/detect/shapes.schema.json is stale: run `node scripts/shape-schemas.mjs`");
      process.exit(1);
    }
  } else writeFileSync(SHAPES_FILE, text);
}
