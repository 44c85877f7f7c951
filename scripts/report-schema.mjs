// The stored report's JSON Schema, derived from its TypeScript type (`Report` in src/model/report.ts) with
// ts-json-schema-generator, so the shape has one source: `merge` and the Action's `report` mode validate every
// report they read with it (src/report/merge.ts). Usage:
//   node scripts/report-schema.mjs          write src/report/report.schema.json
//   node scripts/report-schema.mjs --check  exit 1 when the committed schema differs from the type (test/report)
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { createGenerator } from "ts-json-schema-generator";

const root = resolve(import.meta.dirname, "..");
export const SCHEMA_FILE = resolve(root, "src/report/report.schema.json");

/** The schema text as committed: a strict draft-07 schema of `Report`, pretty-printed. */
export function reportSchemaText() {
  const generator = createGenerator({
    path: resolve(root, "src/model/report.ts"),
    tsconfig: resolve(root, "tsconfig.json"),
    type: "Report",
    topRef: false,
    // an unknown key is refused: a report is skillgate's own output, made by the same version that reads it
    additionalProperties: false,
    skipTypeCheck: true,
  });
  return `${JSON.stringify(generator.createSchema("Report"), null, 2)}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = reportSchemaText();
  if (process.argv.includes("--check")) {
    // compared as JSON: the formatter lays the committed file out its own way
    if (JSON.stringify(JSON.parse(readFileSync(SCHEMA_FILE, "utf8"))) !== JSON.stringify(JSON.parse(text))) {
      console.error("src/report/report.schema.json is stale: run `node scripts/report-schema.mjs`");
      process.exit(1);
    }
  } else writeFileSync(SCHEMA_FILE, text);
}
