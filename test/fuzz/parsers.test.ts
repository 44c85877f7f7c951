import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/model/index.js";
import { FUZZ_KINDS, fuzzInput, validInputs } from "../support/fuzz-arbitraries.js";
import { FuzzHarness, locationProblems } from "./harness.js";

/** Seeded so a CI failure reproduces: `SKILLGATE_FUZZ_SEED=<seed> npx vitest run test/fuzz`. */
const SEED = Number(process.env.SKILLGATE_FUZZ_SEED ?? 20261129);
const RUNS = 500;

const harness = new FuzzHarness(join(mkdtempSync(join(tmpdir(), "sg-fuzz-")), "repo"));

describe("fuzz harness", () => {
  it("accepts the valid documents of every kind without an error", () => {
    const valid = validInputs();
    expect(new Set(valid.map((v) => v.kind))).toEqual(new Set(FUZZ_KINDS));
    for (const v of validInputs()) {
      const o = harness.run(v);
      expect({ how: v.how, ...o }).toEqual({
        how: v.how,
        unlocated: [],
        invalid: [],
        errors: [],
        diagnostics: o.diagnostics,
      });
    }
  });

  it("flags positions outside the file, a missing file and a zero column", () => {
    const repo = mkdtempSync(join(tmpdir(), "sg-loc-"));
    mkdirSync(join(repo, "d"));
    writeFileSync(join(repo, "d/a.yaml"), "ab\ncd\n");
    const d = (file: string, line: number, column: number): Diagnostic => ({
      file,
      line,
      column,
      severity: "error",
      code: "x",
      message: "m",
    });
    expect(locationProblems(repo, d("d/a.yaml", 2, 3))).toEqual([]);
    expect(locationProblems(repo, d("d/a.yaml", 3, 1))).toEqual([]); // after the final newline
    expect(locationProblems(repo, d("d", 1, 1))).toEqual([]);
    expect(locationProblems(repo, d("d/a.yaml", 2, 4))[0]).toMatch(/column beyond/);
    expect(locationProblems(repo, d("d/a.yaml", 4, 1))[0]).toMatch(/line beyond/);
    expect(locationProblems(repo, d("d/a.yaml", 1, 0))[0]).toMatch(/not ≥ 1/);
    expect(locationProblems(repo, d("d/b.yaml", 1, 1))[0]).toMatch(/does not exist/);
    expect(locationProblems(repo, d("", 1, 1))[0]).toMatch(/no repository-relative/);
  });
});

describe(`parsers under ${RUNS} malformed inputs (seed ${SEED})`, () => {
  it("never throw, locate every diagnostic inside its file, and return well-typed transcripts", () => {
    fc.assert(
      fc.property(fuzzInput(), (input) => {
        const o = harness.run(input);
        if (o.crash) throw new Error(`${input.how}: crash ${o.crash}`);
        if (o.unlocated.length) throw new Error(`${input.how}: unlocated ${o.unlocated.join("; ")}`);
        if (o.invalid.length) throw new Error(`${input.how}: invalid result ${o.invalid.join("; ")}`);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  }, 120_000);
});
