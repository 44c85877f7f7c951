/**
 * The change-ranking engine for assertions (`src/grade/assertions/compare.ts`): a type's comparator, registered
 * with the type, is what the suite diff ranks its params by; and every built-in comparator keeps the contract
 * (a configuration against itself is `same`; read the other way, a change ranks the other way).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rankAssertion } from "../../src/grade/assertions/compare.js";
import {
  assertionTypeNames,
  normaliseAssertionType,
  registerAssertion,
} from "../../src/grade/assertions/index.js";
import type { Assertion } from "../../src/model/index.js";
import { inverse } from "../../src/util/change-rank.js";
import { diffSuites } from "../../src/verdict/weakening.js";
import { assertion, caseOf, suite } from "../verdict/make-suite.js";

/** An assertion of `rawType` as the loader makes it (a registered `not-…` name is a type of its own). */
function of(rawType: string, params: Record<string, unknown>, extra: Partial<Assertion> = {}): Assertion {
  const { type, negate } = normaliseAssertionType(rawType)!;
  return { ...assertion("a", rawType, params, 5), type, negate, discriminator: false, ...extra };
}

describe("an assertion type's comparator", () => {
  it("is what the suite diff ranks the type's params by: a new type is one registration", () => {
    // A made-up type: at most `max` words; a larger `max` accepts more.
    registerAssertion({
      type: "test-max-words",
      level: "outcome",
      schema: { type: "object", properties: { max: { type: "number" } } },
      evaluate: async () => ({ pass: true, expected: "", actual: "", message: "" }),
      compare: {
        ranks: () => ["max"],
        changes: (ba, ha, name) => {
          const [b, h] = [Number(ba.params.max), Number(ha.params.max)];
          if (b === h) return [];
          return [
            h > b
              ? { kind: "range-widened", rank: "loosened", message: `${name} allows ${h} words`, sub: "/max" }
              : {
                  kind: "range-narrowed",
                  rank: "tightened",
                  message: `${name} allows ${h} words`,
                  sub: "/max",
                },
          ];
        },
      },
    });
    const words = (max: number) => of("test-max-words", { max });
    const diff = (b: number, h: number) =>
      diffSuites(suite([caseOf("c", [words(b)])]), suite([caseOf("c", [words(h)])])).map((f) => [
        f.id,
        f.direction ?? "loosened",
        f.message,
      ]);
    expect(diff(10, 20)).toEqual([
      [
        "suite-weakened/range-widened/c/a/max",
        "loosened",
        `Assertion "a" of case "c" allows 20 words (${words(10).loc.file}:5 at base).`,
      ],
    ]);
    expect(diff(20, 10)).toEqual([
      ["suite-tightened/range-narrowed/c/a/max", "tightened", `Assertion "a" of case "c" allows 10 words.`],
    ]);
    // Without a comparator, a changed `max` would be an unranked param: a loosening both ways.
    expect(rankAssertion(words(20), words(10))).toBe("tightened");
  });
});

const text = fc.constantFrom("a", "ab", "abc", "b", "bc", "x", "1", "333", "");
const num = fc.constantFrom(1, 2, 3, 333, "1");
const list = <T>(arb: fc.Arbitrary<T>) => fc.uniqueArray(arb, { minLength: 1, maxLength: 3 });

/** Schema-valid params for every built-in type (a few values each, so changes collide often). */
const PARAMS: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  equals: fc.oneof(text, num).map((value) => ({ value })),
  contains: fc.oneof(
    text.map((value) => ({ value })),
    list(text).map((values) => ({ values })),
  ),
  // Lower case only: an icontains needle changed only in case is reported as a tightening both ways (it is no
  // change at all), the one pair where the inverse does not hold.
  icontains: fc.oneof(
    text.map((value) => ({ value })),
    list(text).map((values) => ({ values })),
  ),
  regex: fc.record({ value: text, flags: fc.constantFrom("", "i") }, { requiredKeys: ["value"] }),
  "one-of": list(num).map((values) => ({ values })),
  "not-one-of": list(num).map((values) => ({ values })),
  "number-range": fc
    .tuple(fc.option(fc.integer({ min: 0, max: 4 })), fc.option(fc.integer({ min: 3, max: 8 })))
    .map((range) => ({ range })),
  "json-schema": fc.constantFrom({ type: "object" }, { type: "array" }).map((value) => ({ value })),
  javascript: fc.record({ module: fc.constantFrom("p.mjs", "q.mjs"), export: fc.constantFrom("a", "b") }),
  "file-exists": fc.oneof(
    text.map((value) => ({ value })),
    list(text).map((values) => ({ values })),
  ),
  "file-contains": fc.record({ file: fc.constantFrom("f", "g"), value: text }),
  gate: fc.record({ gate: fc.constantFrom("conservation"), module: fc.constantFrom("m.ts", "n.ts") }),
  "skill-used": text.map((value) => ({ value })),
  "not-skill-used": text.map((value) => ({ value })),
  "tool-called": fc.constantFrom("Write", "Bash").map((tool) => ({ tool })),
  "tool-not-called": fc.constantFrom("Write", "Bash").map((tool) => ({ tool })),
  "tool-order": list(fc.constantFrom("Read", "Write", "Bash")).map((values) => ({
    values: [...values, "Edit"],
  })),
  "allowed-tools": list(fc.constantFrom("Read", "Write", "mcp__*")).map((values) => ({ values })),
  judge: text.map((value) => ({ value: `${value}!` })),
};

/** Two configurations of one type, with what every type shares (condition, dependencies, extractor). */
const pairOf = (rawType: string) => {
  const one = fc
    .record({
      params: PARAMS[rawType.replace(/^not-(?!one-of|skill-used)/, "")]!,
      condition: fc.option(fc.constantFrom("$x", "$y"), { nil: undefined }),
      dependsOn: fc.subarray(["d1", "d2"]),
      extract: fc.option(fc.constantFrom("last-line"), { nil: undefined }),
    })
    .map(({ params, ...extra }) => of(rawType, params, extra));
  return fc.tuple(one, one);
};

describe("every built-in comparator", () => {
  const rawTypes = assertionTypeNames().flatMap((t) =>
    ["one-of", "skill-used"].some((x) => t === `not-${x}`) ? [t] : [t, `not-${t}`],
  );

  it("has params to try for each registered type", () => {
    for (const t of assertionTypeNames().filter((x) => !x.startsWith("test-")))
      expect(PARAMS[t]).toBeDefined();
  });

  it("ranks a configuration against itself `same`, and a change read the other way the other way", () => {
    for (const rawType of rawTypes.filter((t) => !t.startsWith("test-")))
      fc.assert(
        fc.property(pairOf(rawType), ([a, b]) => {
          expect(rankAssertion(a, a)).toBe("same");
          expect(rankAssertion(b, a)).toBe(inverse(rankAssertion(a, b)));
        }),
        { seed: 40, numRuns: 150 },
      );
  });
});

describe("a list's change ranks as its evaluator reads the list", () => {
  const rank = (type: string, base: unknown[], head: unknown[]) =>
    rankAssertion(of(type, { values: base }), of(type, { values: head }));

  it("not-one-of: a forbidden answer dropped loosens (333 passes again), one added tightens", () => {
    expect(rank("not-one-of", [333, 999], [999])).toBe("loosened");
    expect(rank("not-one-of", [999], [333, 999])).toBe("tightened");
  });

  it("one-of and an allow-list: one more accepted loosens", () => {
    expect(rank("one-of", [334], [334, 333])).toBe("loosened");
    expect(rank("allowed-tools", ["Read"], ["Read", "Bash"])).toBe("loosened");
    expect(rank("allowed-tools", ["Read", "Bash"], ["Read"])).toBe("tightened");
  });

  it("file-exists: a required file dropped loosens, one added tightens", () => {
    expect(rank("file-exists", ["src/split.ts", "test/split.test.ts"], ["src/split.ts"])).toBe("loosened");
    expect(rank("file-exists", ["src/split.ts"], ["src/split.ts", "README.md"])).toBe("tightened");
  });

  it("tool-order: a step dropped loosens, a step added in order tightens, steps reordered are a change", () => {
    expect(rank("tool-order", ["Read", "Write", "Bash"], ["Read", "Bash"])).toBe("loosened");
    expect(rank("tool-order", ["Read", "Bash"], ["Read", "Write", "Bash"])).toBe("tightened");
    expect(rank("tool-order", ["Write", "Read"], ["Read", "Write"])).toBe("changed");
  });

  it("through the suite diff: a forbidden answer dropped from a discriminator blocks as a weakening", () => {
    const findings = diffSuites(
      suite([caseOf("c", [of("not-one-of", { values: [333, 999] })])]),
      suite([caseOf("c", [of("not-one-of", { values: [999] })])]),
    );
    expect(findings.map((f) => [f.direction ?? "loosened", f.message])).toEqual([
      ["loosened", expect.stringMatching(/no longer forbids 333/)],
    ]);
  });
});
