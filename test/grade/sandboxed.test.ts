/** `gate`, `javascript` and the oracle through the real sandbox and gate registry (child processes). */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gradeTrial } from "../../src/grade/grade-trial.js";
import { resolveVars } from "../../src/grade/oracle.js";
import type { Assertion, Suite } from "../../src/model/suite.js";
import type { TrialRecord } from "../../src/model/trial.js";
import { asrt, mkCase, mkSuite, mkTrial } from "./helpers.js";

let repo: string;
let suite: Suite;

beforeAll(async () => {
  repo = await mkdtemp(path.join(os.tmpdir(), "skillgate-grade-"));
  const root = path.join(repo, ".agent/evals/split-cents");
  await mkdir(path.join(root, "checks"), { recursive: true });
  await writeFile(
    path.join(root, "checks/sum.mjs"),
    "export default (value, ctx) => ({ pass: value.split(',').map(Number).reduce((a, b) => a + b, 0) === ctx.vars.total, reason: 'sum of ' + value });\nexport const crash = () => { throw new Error('boom'); };\nexport const weird = () => 42;\n",
  );
  await writeFile(
    path.join(root, "oracle.mjs"),
    "console.log(JSON.stringify({ total: 1000, people: 3 }));\n",
  );
  suite = mkSuite([]);
});

afterAll(async () => {
  await rm(repo, { recursive: true, force: true });
});

async function one(a: Assertion, trial: Partial<TrialRecord>, vars: Record<string, unknown> = {}) {
  const caseDef = mkCase("c1", [a]);
  const results = await gradeTrial({
    suite: { ...suite, cases: [caseDef] },
    caseDef,
    trial: mkTrial(trial),
    vars,
    repoDir: repo,
    gateSeed: 7,
  });
  return results.find((r) => r.assertionId === a.id)!;
}

const GOOD = `export function splitCents(total, parts) {
  if (typeof parts !== "number" || !Number.isInteger(parts) || parts <= 0) throw new RangeError("bad parts");
  if (typeof total !== "number" || !Number.isSafeInteger(total) || total < 0) throw new RangeError("bad total");
  const n = parts;
  const base = Math.floor(total / n);
  return Array.from({ length: n }, (_, i) => base + (i < total - base * n ? 1 : 0));
}`;
const ROUNDING = `export function splitCents(total, n) { return Array.from({ length: n }, () => Math.round(total / n)); }`;

describe("gate assertion (real sandbox)", () => {
  it("passes a largest-remainder split and fails the rounding one, with the seed and failed checks", async () => {
    const a = asrt("conserves", "gate", {
      gate: "conservation",
      module: "src/split.ts",
      export: "splitCents",
    });
    const good = await one(a, { files: { "src/split.ts": GOOD } });
    expect(good.status, good.message).toBe("pass");
    expect((good.details!.gate as { seed: number }).seed).toBe(7);
    const bad = await one(a, { files: { "src/split.ts": ROUNDING } });
    expect(bad.status).toBe("fail");
    expect(bad.message).toContain("expected gate conservation to pass on src/split.ts#splitCents");
    expect(bad.message).toMatch(/failed \d+\/\d+ checks \(seed 7\)/);
    const missing = await one(a, { files: {} });
    expect(missing.status).toBe("fail");
    expect(missing.message).toContain("the agent wrote no src/split.ts");
    const noExport = await one(a, { files: { "src/split.ts": "export const other = 1;" } });
    expect(noExport.status).toBe("fail");
    const escaping = asrt("esc", "gate", { gate: "conservation", module: "../../etc/hosts" });
    const escaped = await one(escaping, { files: { "../../etc/hosts": "x" } });
    expect(escaped.status).toBe("error");
    expect(escaped.message).toContain("leaves the workspace");
  });
});

describe("javascript assertion (real sandbox)", () => {
  it("runs the predicate with the extracted value and context", async () => {
    const a = asrt("sum", "javascript", { module: "checks/sum.mjs" }, { extract: "last-line" });
    expect((await one(a, { output: "parts:\n334,333,333" }, { total: 1000 })).status).toBe("pass");
    const fail = await one(a, { output: "parts:\n333,333,333" }, { total: 1000 });
    expect(fail.status).toBe("fail");
    expect(fail.message).toContain("it returned false: sum of 333,333,333");
  });
  it("a throw, a wrong return type or a missing module is an error, never a pass", async () => {
    const crash = await one(asrt("c", "javascript", { module: "checks/sum.mjs", export: "crash" }), {
      output: "x",
    });
    expect(crash.status).toBe("error");
    const weird = await one(asrt("w", "javascript", { module: "checks/sum.mjs", export: "weird" }), {
      output: "x",
    });
    expect(weird.status).toBe("error");
    expect(weird.message).toContain("returned 42");
    const negated = await one(asrt("n", "not-javascript", { module: "checks/nope.mjs" }), { output: "x" });
    expect(negated.status).toBe("error");
    const outside = await one(asrt("o", "javascript", { module: "../../../etc/hosts" }), { output: "x" });
    expect(outside.status).toBe("error");
    expect(outside.message).toContain("must lie inside the suite folder");
  });
});

describe("oracle (real sandbox)", () => {
  const withOracle = (command: string): Suite => ({
    ...suite,
    meta: {
      ...suite.meta,
      vars: { currency: "EUR", total: 1 },
      oracle: { command, loc: { file: ".agent/evals/split-cents/meta.json", line: 4, column: 3 } },
    },
  });
  it("merges the oracle's JSON over meta vars", async () => {
    const r = await resolveVars(withOracle("node oracle.mjs"), repo);
    expect(r.error).toBeUndefined();
    expect(r.vars).toEqual({ currency: "EUR", total: 1000, people: 3 });
  });
  it("a failing oracle or one printing no JSON object is a located error", async () => {
    const failed = await resolveVars(withOracle("node -e 'process.exit(3)'"), repo);
    expect(failed.error).toMatch(/^\.agent\/evals\/split-cents\/meta\.json:4:3: oracle .* failed \(exit 3/);
    const text = await resolveVars(withOracle("echo hello"), repo);
    expect(text.error).toContain("printed no JSON object");
    const list = await resolveVars(withOracle("echo '[1,2]'"), repo);
    expect(list.error).toContain("must print one JSON object");
    expect((await resolveVars(suite, repo)).vars).toEqual({});
  });
  it("runs with a scrubbed environment", async () => {
    process.env.SKILLGATE_TEST_SECRET_TOKEN = "s3cr3t";
    try {
      const r = await resolveVars(
        withOracle(
          `node -e 'console.log(JSON.stringify({seen: process.env.SKILLGATE_TEST_SECRET_TOKEN ?? null}))'`,
        ),
        repo,
      );
      expect(r.vars.seen).toBeNull();
    } finally {
      delete process.env.SKILLGATE_TEST_SECRET_TOKEN;
    }
  });
});
