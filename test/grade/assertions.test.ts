import { describe, expect, it } from "vitest";
import {
  assertionTypeNames,
  getAssertionType,
  normaliseAssertionType,
} from "../../src/grade/assertions/index.js";
import { gradeTrial } from "../../src/grade/grade-trial.js";
import type { Judge } from "../../src/grade/judge.js";
import type { GradeServices } from "../../src/grade/ports.js";
import type { CheckResult } from "../../src/model/check.js";
import type { Assertion } from "../../src/model/suite.js";
import type { TrialRecord } from "../../src/model/trial.js";
import { asrt, mkCase, mkSuite, mkTrial, SUITE_FILE } from "./helpers.js";

async function grade(
  assertions: Assertion[],
  trial: Partial<TrialRecord>,
  opts: { vars?: Record<string, unknown>; judge?: Judge; services?: GradeServices } = {},
): Promise<Record<string, CheckResult>> {
  const caseDef = mkCase("c1", assertions);
  const results = await gradeTrial({
    suite: mkSuite([caseDef]),
    caseDef,
    trial: mkTrial(trial),
    vars: opts.vars ?? {},
    repoDir: "/nonexistent-repo",
    gateSeed: 42,
    ...(opts.judge ? { judge: opts.judge } : {}),
    ...(opts.services ? { services: opts.services } : {}),
  });
  return Object.fromEntries(results.map((r) => [r.assertionId, r]));
}

async function one(a: Assertion, trial: Partial<TrialRecord>, opts?: Parameters<typeof grade>[2]) {
  return (await grade([a], trial, opts))[a.id]!;
}

function located(r: CheckResult, a: Assertion) {
  expect(r.loc).toEqual(a.loc);
  expect(r.message.startsWith(`${SUITE_FILE}:${a.loc.line}:5: ${a.id} (${a.rawType}): `)).toBe(true);
}

describe("registry", () => {
  it("registers every type of the design", () => {
    expect(assertionTypeNames()).toEqual(
      [
        "allowed-tools",
        "contains",
        "equals",
        "file-contains",
        "file-exists",
        "gate",
        "icontains",
        "javascript",
        "json-schema",
        "judge",
        "not-one-of",
        "not-skill-used",
        "number-range",
        "one-of",
        "regex",
        "skill-used",
        "tool-called",
        "tool-not-called",
        "tool-order",
      ].sort(),
    );
    for (const name of assertionTypeNames())
      expect(getAssertionType(name)!.schema).toMatchObject({ type: "object" });
  });

  it("normalises not- prefixes, keeping registered not- types", () => {
    expect(normaliseAssertionType("not-contains")).toEqual({ type: "contains", negate: true });
    expect(normaliseAssertionType("not-one-of")).toEqual({ type: "not-one-of", negate: false });
    expect(normaliseAssertionType("not-skill-used")).toEqual({ type: "not-skill-used", negate: false });
    expect(normaliseAssertionType("not-regex")).toEqual({ type: "regex", negate: true });
    expect(normaliseAssertionType("contians")).toBeUndefined();
    expect(normaliseAssertionType("not-contians")).toBeUndefined();
  });
});

describe("output assertions", () => {
  it("equals compares trimmed text, numbers numerically, JSON deeply", async () => {
    const a = asrt("eq", "equals", { value: 1000 }, { extract: "first-number" });
    expect((await one(a, { output: "Total: 1,000 cents" })).status).toBe("pass");
    const fail = await one(a, { output: "Total: 999 cents" });
    expect(fail.status).toBe("fail");
    located(fail, a);
    expect(fail.message).toContain("expected first-number to equal 1000; saw first number 999: 999");
    const j = asrt("j", "equals", { value: { parts: [334, 333, 333] } }, { extract: "json:result" });
    expect((await one(j, { output: '```json\n{"result": {"parts": [334, 333, 333]}}\n```' })).status).toBe(
      "pass",
    );
    expect((await one(j, { output: '{"result": {"parts": [333, 333, 333]}}' })).status).toBe("fail");
  });

  it("contains / icontains / not-contains, with value or values", async () => {
    const c = asrt("c", "contains", { values: ["334", "333"] });
    expect((await one(c, { output: "334, 333, 333" })).status).toBe("pass");
    const miss = await one(c, { output: "333, 333, 333" });
    expect(miss.status).toBe("fail");
    expect(miss.message).toContain('"334" missing from output');
    located(miss, c);
    const ic = asrt("ic", "icontains", { value: "Largest Remainder" });
    expect((await one(ic, { output: "uses the largest remainder method" })).status).toBe("pass");
    expect((await one(asrt("cs", "contains", { value: "Largest" }), { output: "largest" })).status).toBe(
      "fail",
    );
    const nc = asrt("nc", "not-contains", { value: "Math.round" });
    expect((await one(nc, { output: "floor then distribute" })).status).toBe("pass");
    const ncFail = await one(nc, { output: "uses Math.round on each share" });
    expect(ncFail.status).toBe("fail");
    expect(ncFail.message).toContain('expected NOT output to contain "Math.round"');
  });

  it("regex with flags; an invalid pattern is an error, not a fail", async () => {
    const r = asrt("r", "regex", { value: "^\\d+ cents$", flags: "m" });
    expect((await one(r, { output: "parts:\n334 cents" })).status).toBe("pass");
    expect((await one(r, { output: "334 dollars" })).status).toBe("fail");
    const bad = await one(asrt("bad", "regex", { value: "(" }), { output: "x" });
    expect(bad.status).toBe("error");
    expect(bad.message).toContain("invalid regular expression");
  });

  it("one-of and not-one-of (forbidden answers); silence never avoids the trap", async () => {
    const o = asrt("o", "one-of", { values: [334, 333] }, { extract: "first-number" });
    expect((await one(o, { output: "first part 334" })).status).toBe("pass");
    expect((await one(o, { output: "first part 335" })).status).toBe("fail");
    const d = asrt("D:no-lost-cent", "not-one-of", { values: [333] }, { extract: "first-number" });
    expect((await one(d, { output: "334, 333, 333" })).status).toBe("pass");
    const trap = await one(d, { output: "333, 333, 333 (999 total)" });
    expect(trap.status).toBe("fail");
    expect(trap.discriminator).toBe(true);
    expect(trap.message).toContain("to be none of [333]; saw first number 333: 333 (listed)");
    located(trap, d);
    // The tempting wrong reading: "no number, so it is not 333" would pass. It must fail.
    const silent = await one(d, { output: "I could not work out the split." });
    expect(silent.status).toBe("fail");
    expect(silent.message).toContain("no number in the output");
    // The same through a generic not- prefix on one-of.
    const neg = { ...asrt("neg", "one-of", { values: [333] }, { extract: "first-number" }), negate: true };
    expect((await one(neg, { output: "nothing" })).status).toBe("fail");
    expect((await one(neg, { output: "334" })).status).toBe("pass");
    expect((await one(neg, { output: "333" })).status).toBe("fail");
  });

  it("number-range with first-number default and open sides", async () => {
    const n = asrt("n", "number-range", { range: [1, 3] });
    expect((await one(n, { output: "2 orders" })).status).toBe("pass");
    expect((await one(n, { output: "3 orders" })).status).toBe("pass");
    const four = await one(n, { output: "4 orders" });
    expect(four.status).toBe("fail");
    expect(four.message).toContain("expected first-number within [1, 3]; saw first number 4: 4");
    expect((await one(asrt("open", "number-range", { range: [null, 0] }), { output: "-5" })).status).toBe(
      "pass",
    );
    const ll = asrt("ll", "number-range", { range: [0, 10] }, { extract: "last-line" });
    expect((await one(ll, { output: "answer:\nseven" })).status).toBe("fail");
  });

  it("json-schema validates the JSON in the output", async () => {
    const s = asrt("s", "json-schema", {
      value: { type: "object", required: ["count"], properties: { count: { type: "integer", minimum: 0 } } },
    });
    expect((await one(s, { output: 'Here: {"count": 2}' })).status).toBe("pass");
    const bad = await one(s, { output: '{"count": -1}' });
    expect(bad.status).toBe("fail");
    expect(bad.message).toContain("/count must be >= 0");
    const none = await one(s, { output: "no json" });
    expect(none.status).toBe("fail");
    expect(none.message).toContain("no JSON found");
  });
});

describe("file assertions", () => {
  const files = { "src/split.ts": "export function splitCents() { return floorAndDistribute(); }" };
  it("file-exists with paths and globs", async () => {
    expect((await one(asrt("fe", "file-exists", { value: "src/split.ts" }), { files })).status).toBe("pass");
    expect((await one(asrt("fg", "file-exists", { value: "src/**/*.ts" }), { files })).status).toBe("pass");
    const miss = await one(asrt("fm", "file-exists", { values: ["src/split.ts", "test/split.test.ts"] }), {
      files,
    });
    expect(miss.status).toBe("fail");
    expect(miss.message).toContain('"test/split.test.ts" absent; written: src/split.ts');
    const nf = await one(asrt("nfe", "not-file-exists", { value: "secrets.env" }), { files });
    expect(nf.status).toBe("pass");
  });
  it("file-contains", async () => {
    expect(
      (
        await one(asrt("fc", "file-contains", { file: "src/split.ts", value: "floorAndDistribute" }), {
          files,
        })
      ).status,
    ).toBe("pass");
    const miss = await one(asrt("fc2", "file-contains", { file: "src/split.ts", value: "Math.round" }), {
      files,
    });
    expect(miss.status).toBe("fail");
    expect(miss.message).toContain('"Math.round" missing from src/split.ts');
    const nofile = await one(asrt("fc3", "not-file-contains", { file: "src/x.ts", value: "eval(" }), {
      files,
    });
    expect(nofile.status).toBe("fail");
    expect(nofile.message).toContain("src/x.ts was not written");
  });
});

describe("process and trace assertions", () => {
  const calls = [
    { name: "Skill", input: { skill: "split-cents" }, turn: 0 },
    { name: "fetch_usage", input: { cluster_name: "east", from: "2026-05-01", limit: 50 }, turn: 1 },
    { name: "fetch_usage", input: { cluster_name: "west", from: "2026-05-01", limit: 50 }, turn: 1 },
    { name: "stage", input: { rows: 9 }, turn: 2 },
    { name: "readback", input: {}, turn: 3 },
    { name: "Bash", input: { command: "rm -rf /tmp/x" }, turn: 4 },
  ];

  it("skill-used / not-skill-used read skillsActivated, never the output", async () => {
    const su = asrt("su", "skill-used");
    expect((await one(su, { skillsActivated: ["split-cents"] })).status).toBe("pass");
    const claimed = await one(su, { output: "I used the split-cents skill", skillsActivated: [] });
    expect(claimed.status).toBe("fail");
    expect(claimed.message).toContain("expected skill split-cents activated; saw skills activated: none");
    const unreg = await one(su, { skillsActivated: [], skillsRegistered: ["other"] });
    expect(unreg.message).toContain("split-cents was not even registered");
    const nsu = asrt("nsu", "not-skill-used", { value: "other-skill" });
    expect((await one(nsu, { skillsActivated: ["split-cents"] })).status).toBe("pass");
    expect((await one(nsu, { skillsActivated: ["other-skill"] })).status).toBe("fail");
  });

  it("tool-called: name, argument matchers (exact, regex, range, placeholder) and count", async () => {
    const t = asrt("t", "tool-called", {
      tool: "fetch_usage",
      args: { from: "$start", cluster_name: { regex: "^(east|west)$" }, limit: { range: [1, 100] } },
      count: 2,
    });
    expect((await one(t, { toolCalls: calls }, { vars: { start: "2026-05-01" } })).status).toBe("pass");
    const wrongDate = await one(t, { toolCalls: calls }, { vars: { start: "2026-06-01" } });
    expect(wrongDate.status).toBe("fail");
    expect(wrongDate.message).toContain('fetch_usage(from: "2026-06-01"');
    expect(wrongDate.message).toContain("0 matching calls; fetch_usage calls seen: fetch_usage(");
    const once = asrt("once", "tool-called", { tool: "fetch_usage", count: { max: 1 } });
    expect((await one(once, { toolCalls: calls })).status).toBe("fail");
    const re = asrt("re", "tool-called", { tool: "/^fetch_/", count: { min: 2 } });
    expect((await one(re, { toolCalls: calls })).status).toBe("pass");
    const unresolved = await one(t, { toolCalls: calls }, { vars: {} });
    expect(unresolved.status).toBe("error");
    expect(unresolved.message).toContain("unresolved placeholder $start");
  });

  it("tool-called scope: missing calls and out-of-scope values", async () => {
    const scoped = (values: unknown) =>
      asrt("scope", "tool-called", { tool: "fetch_usage", scope: { arg: "cluster_name", values } });
    expect(
      (await one(scoped("$clusters"), { toolCalls: calls }, { vars: { clusters: ["east", "west"] } })).status,
    ).toBe("pass");
    const missing = await one(scoped(["east", "west", "north"]), { toolCalls: calls });
    expect(missing.status).toBe("fail");
    expect(missing.message).toContain('missing calls for cluster_name ["north"]');
    const outside = await one(scoped(["east"]), { toolCalls: calls });
    expect(outside.status).toBe("fail");
    expect(outside.message).toContain('out-of-scope calls: fetch_usage({"cluster_name":"west"');
  });

  it("tool-not-called", async () => {
    const t = asrt("tnc", "tool-not-called", { tool: "Bash", args: { command: { contains: "rm -rf" } } });
    const hit = await one(t, { toolCalls: calls });
    expect(hit.status).toBe("fail");
    expect(hit.message).toContain("expected no call of Bash(command: contains");
    expect((await one(t, { toolCalls: calls.slice(0, 5) })).status).toBe("pass");
  });

  it("tool-order by turn", async () => {
    const t = asrt("order", "tool-order", { values: ["fetch_usage", "stage", "readback"] });
    expect((await one(t, { toolCalls: calls })).status).toBe("pass");
    const wrong = asrt("wrong", "tool-order", { values: ["readback", "stage"] });
    const r = await one(wrong, { toolCalls: calls });
    expect(r.status).toBe("fail");
    expect(r.message).toContain("expected calls in order readback → stage");
    expect(r.message).toContain("stage only before readback");
    // Same turn: in order by position, but not in strictly later turns.
    const sameTurn = [
      { name: "stage", input: {}, turn: 2 },
      { name: "readback", input: {}, turn: 2 },
    ];
    expect(
      (await one(asrt("o3", "tool-order", { values: ["stage", "readback"] }), { toolCalls: sameTurn }))
        .status,
    ).toBe("pass");
    const strict = await one(asrt("o4", "tool-order", { values: ["stage", "readback"], strictTurns: true }), {
      toolCalls: sameTurn,
    });
    expect(strict.status).toBe("fail");
    expect(strict.message).toContain("in strictly later turns");
    // Turn decides, not position in the record.
    const shuffled = [calls[4]!, calls[3]!];
    expect(
      (await one(asrt("o2", "tool-order", { values: ["stage", "readback"] }), { toolCalls: shuffled }))
        .status,
    ).toBe("pass");
  });

  it("allowed-tools allowlist", async () => {
    const t = asrt("allow", "allowed-tools", { values: ["Skill", "fetch_*", "stage", "readback"] });
    const r = await one(t, { toolCalls: calls });
    expect(r.status).toBe("fail");
    expect(r.message).toContain('saw Bash: Bash({"command":"rm -rf /tmp/x"}) at turn 4');
    expect((await one(t, { toolCalls: calls.slice(0, 5) })).status).toBe("pass");
  });
});

describe("judge assertion", () => {
  it("records the judge's evidence; without a judge it is an error", async () => {
    const a = asrt("j", "judge", { value: "The answer explains who gets the extra cent" });
    const seen: string[] = [];
    const judge: Judge = {
      async grade(expectation, output) {
        seen.push(expectation);
        return { passed: output.includes("first person"), evidence: `found: ${output}` };
      },
    };
    const pass = await one(a, { output: "the first person gets 334" }, { judge });
    expect(pass.status).toBe("pass");
    expect(pass.evidence).toBe("found: the first person gets 334");
    expect(seen).toEqual(["The answer explains who gets the extra cent"]);
    expect((await one(a, { output: "333 each" }, { judge })).status).toBe("fail");
    const none = await one(a, { output: "x" });
    expect(none.status).toBe("error");
    expect(none.message).toContain("no judge configured");
    const broken: Judge = {
      async grade() {
        throw new Error("HTTP 529 overloaded");
      },
    };
    expect((await one(a, { output: "x" }, { judge: broken })).status).toBe("error");
  });
});

describe("gradeTrial control flow", () => {
  it("emits trial-ok; a trial error skips every assertion and links it", async () => {
    const a = asrt("c", "contains", { value: "x" });
    const r = await grade([a], {
      output: "x",
      error: { kind: "timeout", message: "no answer in 600 s" },
    });
    expect(r["trial-ok"]!.status).toBe("error");
    expect(r["trial-ok"]!.checkId).toBe("c1/trial-ok");
    expect(r.c!.status).toBe("skipped");
    expect(r.c!.skipReason).toBe("trial error (timeout)");
    expect(r.c!.dependsOn).toContain("c1/trial-ok");
    const ok = await grade([a], { output: "x" });
    expect(ok["trial-ok"]!.status).toBe("pass");
    expect(ok.c!.checkId).toBe("c1/c");
  });

  it("contamination fails trial-ok", async () => {
    const r = await grade([], { error: { kind: "contaminated", message: "read .claude/skills/x/SKILL.md" } });
    expect(r["trial-ok"]!.status).toBe("fail");
  });

  it("depends_on skips dependents of a failed assertion, in any declaration order", async () => {
    const later = asrt("later", "contains", { value: "z" }, { dependsOn: ["first"] });
    const first = asrt("first", "contains", { value: "1000" });
    const r = await grade([later, first], { output: "999 z" });
    expect(r.first!.status).toBe("fail");
    expect(r.later!.status).toBe("skipped");
    expect(r.later!.skipReason).toBe("dependency failed: first");
    expect(r.later!.dependsOn).toEqual(["c1/trial-ok", "c1/first"]);
    const ok = await grade([later, first], { output: "1000 z" });
    expect(ok.later!.status).toBe("pass");
    const unknown = await grade([asrt("u", "contains", { value: "a" }, { dependsOn: ["nope"] })], {
      output: "a",
    });
    expect(unknown.u!.status).toBe("error");
    const cyc = await grade(
      [
        asrt("a", "contains", { value: "a" }, { dependsOn: ["b"] }),
        asrt("b", "contains", { value: "a" }, { dependsOn: ["a"] }),
      ],
      { output: "a" },
    );
    expect(cyc.a!.status).toBe("error");
    expect(cyc.a!.message).toContain("depends_on cycle");
    expect(cyc.b!.status).toBe("skipped");
  });

  it("condition false skips; conditions read vars; bad conditions are errors", async () => {
    const a = asrt("k8s", "contains", { value: "cluster" }, { condition: "$has_k8s && $clusters > 1" });
    expect(
      (await grade([a], { output: "" }, { vars: { has_k8s: false, clusters: 2 } })).k8s!.skipReason,
    ).toBe("condition false");
    expect(
      (await grade([a], { output: "cluster" }, { vars: { has_k8s: true, clusters: 2 } })).k8s!.status,
    ).toBe("pass");
    expect((await grade([a], { output: "cluster" }, { vars: {} })).k8s!.status).toBe("error");
    const bad = asrt("bad", "contains", { value: "x" }, { condition: "$a ==" });
    expect((await grade([bad], { output: "x" }, { vars: { a: 1 } })).bad!.status).toBe("error");
  });

  it("case vars override suite vars; placeholders interpolate inside strings", async () => {
    const caseDef = mkCase("c1", [asrt("p", "contains", { value: "total $total cents" })], { total: 1000 });
    const r = await gradeTrial({
      suite: mkSuite([caseDef]),
      caseDef,
      trial: mkTrial({ output: "total 1000 cents" }),
      vars: { total: 5 },
      repoDir: "/x",
      gateSeed: 1,
    });
    expect(r.find((x) => x.assertionId === "p")!.status).toBe("pass");
  });
});
