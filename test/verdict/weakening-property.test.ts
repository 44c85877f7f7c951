/**
 * Weakening, checked against a reference classifier: generated suites receive generated edits whose direction is
 * known by construction (removing an assertion loosens, adding one tightens, appending to a `contains` value
 * tightens, shortening it loosens …). `diffSuites` must report a loosening exactly when some edit loosened, put
 * every loosened finding on an edited assertion, and report a tightening for every tightening edit.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Assertion, Case } from "../../src/model/index.js";
import { diffSuites } from "../../src/verdict/weakening.js";
import { assertion, caseOf, suite } from "./make-suite.js";

type Direction = "loosened" | "tightened" | "none";

interface Edit {
  name: string;
  direction: Direction;
  /** The edited assertion, or undefined to remove it. */
  apply(a: Assertion): Assertion | undefined;
}

const word = fc.stringMatching(/^[a-z]{2,6}$/);
const num = fc.integer({ min: -50, max: 50 });

/** A base assertion of one of the families the classifier knows, with a stable id. */
const baseAssertion = (id: string, line: number): fc.Arbitrary<Assertion> =>
  fc.oneof(
    word.map((v) => assertion(id, "contains", { value: v }, line)),
    word.map((v) => assertion(id, "not-contains", { value: v }, line)),
    fc
      .uniqueArray(num, { minLength: 1, maxLength: 3 })
      .map((vs) => assertion(id, "one-of", { values: vs }, line)),
    fc
      .uniqueArray(num, { minLength: 1, maxLength: 3 })
      .map((vs) => assertion(id, "not-one-of", { values: vs }, line)),
    fc
      .tuple(num, fc.integer({ min: 1, max: 20 }))
      .map(([lo, w]) => assertion(id, "number-range", { range: [lo, lo + w] }, line)),
    word.map((v) => assertion(id, "regex", { value: `^${v}` }, line)),
    // all-of needles: every value must occur
    fc
      .uniqueArray(word, { minLength: 1, maxLength: 3 })
      .map((vs) => assertion(id, "contains", { values: vs }, line)),
    fc
      .uniqueArray(word, { minLength: 1, maxLength: 3 })
      .map((vs) => assertion(id, "not-contains", { values: vs }, line)),
    word.map((v) => assertion(id, "equals", { value: v }, line)),
    word.map((v) => assertion(id, "not-equals", { value: v }, line)),
    fc
      .constantFrom("count", "weights")
      .map((mode) =>
        assertion(id, "gate", { gate: "conservation", module: "src/split.ts", options: { mode } }, line),
      ),
  );

/** The edits that apply to an assertion, each with the direction a reference classifier gives it. */
function editsFor(a: Assertion): Edit[] {
  const p = a.params;
  const withParams = (params: Record<string, unknown>) => ({ ...a, params: { ...p, ...params } });
  const edits: Edit[] = [
    { name: "identity", direction: "none", apply: (x) => x },
    { name: "remove", direction: "loosened", apply: () => undefined },
    { name: "condition", direction: "loosened", apply: (x) => ({ ...x, condition: "$strict" }) },
    { name: "depend", direction: "loosened", apply: (x) => ({ ...x, dependsOn: [...x.dependsOn, "other"] }) },
    { name: "extract", direction: "loosened", apply: (x) => ({ ...x, extract: "last-line" }) },
  ];
  if (a.type === "contains" && typeof p.value === "string") {
    const v = p.value;
    const longer = { name: "append", apply: () => withParams({ value: `${v}zz` }) };
    const shorter = { name: "shorten", apply: () => withParams({ value: v.slice(0, -1) }) };
    edits.push(
      a.negate ? { ...longer, direction: "loosened" } : { ...longer, direction: "tightened" },
      a.negate ? { ...shorter, direction: "tightened" } : { ...shorter, direction: "loosened" },
      {
        name: "trivial",
        direction: a.negate ? "tightened" : "loosened",
        apply: () => withParams({ value: "" }),
      },
    );
  }
  const retype = (type: string, params: Record<string, unknown>) => {
    const b = assertion(a.id, type, params, a.loc.line);
    return { ...a, type: b.type, rawType: b.rawType, negate: b.negate, params: b.params };
  };
  const not = a.negate ? "not-" : "";
  if (a.type === "contains") {
    const needles = (Array.isArray(p.values) ? p.values : [p.values ?? p.value]).map(String);
    // equals a text holding every needle accepts a subset; read through not-, a superset
    edits.push(
      {
        name: "to-equals-covering",
        direction: a.negate ? "loosened" : "tightened",
        apply: () => retype(`${not}equals`, { value: needles.join(" ") }),
      },
      {
        name: "to-equals-unrelated",
        direction: "loosened",
        apply: () => retype(`${not}equals`, { value: "QQQ" }),
      },
    );
    if (Array.isArray(p.values)) {
      const vs = p.values as string[];
      edits.push({
        name: "add-needle",
        direction: a.negate ? "loosened" : "tightened",
        apply: () => withParams({ values: [...vs, "qqq"] }),
      });
      if (vs.length > 1)
        edits.push({
          name: "drop-needle",
          direction: a.negate ? "tightened" : "loosened",
          apply: () => withParams({ values: vs.slice(1) }),
        });
    }
  }
  if (a.type === "equals")
    edits.push({
      name: "to-contains",
      direction: a.negate ? "tightened" : "loosened",
      apply: () => retype(`${not}contains`, { value: String(p.value) }),
    });
  if (a.type === "regex")
    edits.push({ name: "to-equals", direction: "loosened", apply: () => retype("equals", { value: "x" }) });
  if (a.type === "one-of") {
    const vs = p.values as number[];
    edits.push(
      {
        name: "to-equals-member",
        direction: a.negate ? "loosened" : "tightened",
        apply: () => retype(`${not}equals`, { value: vs[0] }),
      },
      {
        name: "to-equals-other",
        direction: "loosened",
        apply: () => retype(`${not}equals`, { value: 999 }),
      },
    );
  }
  if (a.type === "one-of") {
    const vs = p.values as number[];
    const grown = { name: "add-value", apply: () => withParams({ values: [...vs, 999] }) };
    edits.push({ ...grown, direction: a.negate ? "tightened" : "loosened" });
    if (vs.length > 1)
      edits.push({
        name: "drop-value",
        direction: a.negate ? "loosened" : "tightened",
        apply: () => withParams({ values: vs.slice(1) }),
      });
  }
  if (a.type === "number-range") {
    const [lo, hi] = p.range as [number, number];
    edits.push(
      { name: "widen", direction: "loosened", apply: () => withParams({ range: [lo - 1, hi] }) },
      ...(hi - lo >= 2
        ? [
            {
              name: "narrow",
              direction: "tightened" as const,
              apply: () => withParams({ range: [lo + 1, hi] }),
            },
          ]
        : []),
    );
  }
  if (a.type === "regex")
    edits.push(
      {
        name: "new-pattern",
        direction: "loosened",
        apply: () => withParams({ value: `${String(p.value)}|x` }),
      },
      { name: "flags", direction: "loosened", apply: () => withParams({ flags: "i" }) },
    );
  if (a.type === "gate")
    edits.push({
      name: "options",
      direction: "loosened",
      apply: () =>
        withParams({
          options: { mode: (p.options as { mode: string }).mode === "count" ? "weights" : "count" },
        }),
    });
  return edits;
}

const caseArb = fc
  .integer({ min: 1, max: 5 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => baseAssertion(`a${i}`, 3 + i))))
  .map((as) => caseOf("c", as));

/** A case plus an edit (by index into `editsFor`) for each of its assertions. */
const scenario = caseArb.chain((c) =>
  fc
    .tuple(...c.assertions.map((a) => fc.nat({ max: editsFor(a).length - 1 })))
    .chain((picks) => fc.record({ c: fc.constant(c), picks: fc.constant(picks), addOne: fc.boolean() })),
);

function applyEdits(c: Case, picks: number[], addOne: boolean) {
  const edits = c.assertions.map((a, i) => ({ id: a.id, edit: editsFor(a)[picks[i]!]! }));
  const assertions = c.assertions
    .map((a, i) => edits[i]!.edit.apply(a))
    .filter((a): a is Assertion => a !== undefined);
  if (addOne) assertions.push(assertion("added", "contains", { value: "new" }, 40));
  return { head: { ...c, assertions }, edits };
}

describe("weakening against a reference classifier", () => {
  it("reports a loosening exactly when an edit loosened, on the edited assertions only", () => {
    fc.assert(
      fc.property(scenario, ({ c, picks, addOne }) => {
        const { head, edits } = applyEdits(c, picks, addOne);
        const findings = diffSuites(suite([c]), suite([head]));
        const loose = findings.filter((f) => f.direction !== "tightened");
        const tight = findings.filter((f) => f.direction === "tightened");
        const looseEdits = edits.filter((e) => e.edit.direction === "loosened");
        const tightEdits = edits.filter((e) => e.edit.direction === "tightened");
        // Loosened iff some edit loosened, each loosened edit found, nothing else blamed.
        expect(loose.length > 0).toBe(looseEdits.length > 0);
        for (const e of looseEdits) expect(loose.some((f) => f.id.includes(`/c/${e.id}`))).toBe(true);
        for (const f of loose) expect(looseEdits.some((e) => f.id.includes(`/c/${e.id}`))).toBe(true);
        // Each tightening reported, and an added assertion too.
        for (const e of tightEdits) expect(tight.some((f) => f.id.includes(`/c/${e.id}`))).toBe(true);
        if (addOne) expect(tight.some((f) => f.kind === "assertion-added")).toBe(true);
        // Untouched assertions are never mentioned.
        for (const e of edits.filter((x) => x.edit.direction === "none"))
          expect(findings.some((f) => f.id.includes(`/c/${e.id}`))).toBe(false);
        // Every finding is located on a line of the head suite.
        for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(1);
      }),
      { seed: 20261201, numRuns: 600 },
    );
  });

  it("is blind to formatting: the same suite with other lines and prompt whitespace is unchanged", () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 1, max: 30 }), (c, shift) => {
        const moved = {
          ...c,
          prompt: `  ${c.prompt.toUpperCase()}  `,
          assertions: c.assertions.map((a) => ({ ...a, loc: { ...a.loc, line: a.loc.line + shift } })),
        };
        expect(diffSuites(suite([c]), suite([moved]))).toEqual([]);
      }),
      { seed: 7, numRuns: 200 },
    );
  });
});
