/**
 * The stored report's schema is derived from the `Report` type (scripts/report-schema.mjs): the committed file is
 * what the type gives today, so a field added to the type cannot be refused (or a removed one accepted) by
 * `merge` and the Action's `report` mode.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { reportSchemaText, SCHEMA_FILE } from "../../scripts/report-schema.mjs";

describe("src/report/report.schema.json", () => {
  it("is what scripts/report-schema.mjs derives from the Report type (run it after changing the type)", () => {
    const derived = JSON.parse(reportSchemaText());
    expect(JSON.parse(readFileSync(SCHEMA_FILE, "utf8"))).toEqual(derived);
  }, 180_000);
});
