/**
 * The schemas of the files skillgate reads are derived from their types (scripts/shape-schemas.mjs): the committed
 * file is what the types give today, so a key added to a type only (or to the schema only) cannot pass unnoticed.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SHAPES_FILE, shapeSchemasText } from "../../scripts/shape-schemas.mjs";

const committed = () => JSON.parse(readFileSync(SHAPES_FILE, "utf8"));

describe("src/detect/shapes.schema.json", () => {
  it("is what scripts/shape-schemas.mjs derives from the types (run it after changing one)", () => {
    expect(committed()).toEqual(JSON.parse(shapeSchemasText()));
  }, 180_000);

  it("differs from what the types give once a key is added to a type only", () => {
    const copy = mkdtempSync(join(tmpdir(), "sg-shapes-"));
    cpSync("src/model", join(copy, "src/model"), { recursive: true });
    cpSync("tsconfig.json", join(copy, "tsconfig.json"));
    const files = join(copy, "src/model/files.ts");
    const text = readFileSync(files, "utf8");
    writeFileSync(
      files,
      text.replace(
        "  lastRun?: string;\n",
        "  lastRun?: string;\n  /** @minimum 2 */\n  retries?: number;\n",
      ),
    );
    const derived = JSON.parse(shapeSchemasText(copy));
    expect(derived.MetaShape.properties.retries).toEqual({ type: "number", minimum: 2 });
    expect(derived).not.toEqual(committed());
  }, 180_000);
});
