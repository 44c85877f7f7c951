/**
 * Issue #40: the layers of docs/ARCHITECTURE.md hold, checked by dependency-cruiser (.dependency-cruiser.cjs): no
 * module imports a layer above its own, `@actions/*` only at the GitHub edge, no runtime import circles. The arrows
 * that still run back up are listed in .dependency-cruiser-known-violations.json: that list may only shrink.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const KNOWN = join(ROOT, ".dependency-cruiser-known-violations.json");
/** The arrows back up when the check landed; each one removed lowers this. */
const KNOWN_AT_MOST = 3;

describe("layering (dependency-cruiser)", () => {
  it("no new import runs back up the layers", async () => {
    const r = await execa(
      process.execPath,
      [
        join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs"),
        "--config",
        ".dependency-cruiser.cjs",
        "--ignore-known",
        KNOWN,
        "--output-type",
        "err",
        "src",
        "gates",
      ],
      { cwd: ROOT, reject: false },
    );
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
  }, 120_000);

  it("the list of known arrows back up only shrinks", () => {
    const known = JSON.parse(readFileSync(KNOWN, "utf8")) as { from: string; to: string }[];
    expect(known.length).toBeLessThanOrEqual(KNOWN_AT_MOST);
    // Never the edge rule: @actions/* stays under src/github/ and the entry points without exception.
    expect(known.filter((k) => k.to.includes("@actions/"))).toEqual([]);
  });
});
