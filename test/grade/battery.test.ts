/**
 * A suite run end to end through a deterministic agent: exact discriminator figures (pass rates, lifts, the class
 * of each assertion) and, with the lexical router as the deterministic trigger agent, exact precision/recall/F1.
 */
import { describe, expect, it } from "vitest";
import { createLexicalAdapter } from "../../src/agents/lexical.js";
import { summariseDiscriminator } from "../../src/grade/discriminator.js";
import { gradeTrial } from "../../src/grade/grade-trial.js";
import { confusionTable, gradeTriggerTrial, summariseTrigger } from "../../src/grade/trigger.js";
import type { AgentRunContext } from "../../src/model/agent.js";
import type { CheckResult } from "../../src/model/check.js";
import type { IndexedTriggerQuery, TriggerSet } from "../../src/model/suite.js";
import type { TrialRecord } from "../../src/model/trial.js";
import { crossSkillQueries, triggerQueries } from "../../src/plan/queries.js";
import { caseA, runBattery } from "./battery-fixture.js";
import { asrt, mkCase, mkSuite, mkTrial } from "./helpers.js";

describe("discriminator battery through a deterministic agent", () => {
  it("gives exact pass rates, lifts and classes", async () => {
    const s = summariseDiscriminator(await runBattery());
    expect(s.skill.trials).toBe(6);
    expect(s.skill.errors).toBe(0);
    // skill, each case one vote: case A 12/12 → 1; case B: D:sum 3 + explains 2 (even trials) + terse 0 +
    // impossible 0 → trial shares 2/4, 1/4, 2/4 → 5/12. Mean (1 + 5/12) / 2.
    expect(s.skill.passRate).toMatchObject({ units: 2, passing: 1, trials: 6, unit: "case", measured: true });
    expect(s.skill.passRate.rate).toBeCloseTo(17 / 24, 12);
    // Hoeffding at 2.5 % each side: half-width sqrt(ln 40 / 2 · 2 · (1/2)² / 3) = 0.5545.
    expect(s.skill.passRate.low).toBeCloseTo(17 / 24 - 0.554545, 3);
    expect(s.skill.passRate.high).toBe(1);
    expect(s.skill.discriminatorPassRate).toMatchObject({ units: 2, passing: 2, rate: 1 });
    // baseline: mentions-total in each of case A's trials (1/4), terse in each of case B's (1/4).
    expect(s.baseline.passRate).toMatchObject({ units: 2, passing: 0, trials: 6 });
    expect(s.baseline.passRate.rate).toBeCloseTo(0.25, 12);
    expect(s.baseline.discriminatorPassRate).toMatchObject({ units: 2, passing: 0, rate: 0 });
    expect(s.lift).toBeCloseTo(11 / 24, 12);
    expect(s.discriminatorLift).toBe(1);
    expect(s.styleGuideNotGuardrail).toBe(false);
    const classes = Object.fromEntries(s.assertions.map((a) => [a.checkId, a.class]));
    expect(classes).toEqual({
      "split-1000-3/mentions-total": "non-discriminating",
      "split-1000-3/D:no-lost-cent": "discriminating",
      "split-1000-3/activated": "discriminating",
      "split-1000-3/D:uses-floor": "discriminating",
      "split-7-2/D:sum": "discriminating",
      "split-7-2/explains": "flaky",
      "split-7-2/terse": "skill-hurts",
      "split-7-2/impossible": "broken",
    });
    const lost = s.assertions.find((a) => a.id === "D:no-lost-cent")!;
    expect(lost.discriminator).toBe(true);
    expect(lost.skill).toMatchObject({ passed: 3, total: 3 });
    expect(lost.baseline).toMatchObject({ passed: 0, total: 3 });
    expect(lost.file).toBe(caseA.assertions[1]!.loc.file);
    expect(lost.line).toBe(caseA.assertions[1]!.loc.line);
    expect(lost.sampleFailure).toContain("baseline trial 0:");
    expect(lost.sampleFailure).toContain("saw first number 333");
  });

  it("flags a style guide: overall lift without discriminator lift", async () => {
    const checks = (await runBattery()).map((c) =>
      // Make every discriminator pass in the baseline too: overall lift stays positive, discriminator lift 0.
      c.discriminator && c.mode === "baseline" ? { ...c, status: "pass" as const } : c,
    );
    const s = summariseDiscriminator(checks);
    expect(s.discriminatorLift).toBe(0);
    expect(s.lift).toBeGreaterThan(0);
    expect(s.styleGuideNotGuardrail).toBe(true);
    expect(s.warnings?.join(" ")).toContain("style guide, not a guardrail");
  });

  it("leaves errored trials and condition-false assertions out of the rates, and counts the errors", async () => {
    const caseDef = mkCase("c", [
      asrt("x", "contains", { value: "x" }),
      asrt("cond", "contains", { value: "x" }, { condition: "$never" }),
    ]);
    const s2 = mkSuite([caseDef]);
    const checks: CheckResult[] = [];
    for (const [mode, trial, error, output] of [
      ["skill", 0, false, "x"],
      ["skill", 1, true, "x"],
      ["skill", 2, false, "y"],
      ["baseline", 0, true, "y"],
      ["baseline", 1, true, "y"],
    ] as const) {
      const rec = mkTrial({
        caseId: "c",
        mode,
        trial,
        output,
        ...(error ? { error: { kind: "timeout" as const, message: "slow" } } : {}),
      });
      checks.push(
        ...(await gradeTrial({
          suite: s2,
          caseDef,
          trial: rec,
          vars: { never: false },
          repoDir: "/x",
          gateSeed: 1,
        })),
      );
    }
    const s = summariseDiscriminator(checks);
    expect(s.skill).toMatchObject({ trials: 3, errors: 1 });
    // x: pass in trial 0, fail in trial 2; trial 1 errored and is not counted; cond never applies.
    expect(s.skill.passRate).toMatchObject({ rate: 0.5, units: 1, trials: 2 });
    // The tempting wrong answer: a baseline that only timed out "fails everything" and shows a big lift.
    expect(s.baseline).toMatchObject({ trials: 2, errors: 2 });
    expect(s.baseline.passRate).toMatchObject({ units: 0, measured: false });
    expect(s.lift).toBe(0);
    expect(s.warnings).toContain("no evaluated trial in one of the modes (all errored?): lift not measured");
    expect(s.assertions.find((a) => a.id === "x")!.class).toBe("flaky");
    expect(s.warnings).toContain("no discriminator assertions: discriminator lift not measured");
  });
});

describe("lift when a mode has no evaluated trial", () => {
  it("is not measured (a baseline that only timed out or was contaminated shows no lift)", async () => {
    const caseDef = mkCase("c", [asrt("x", "contains", { value: "x" })]);
    const s2 = mkSuite([caseDef]);
    const checks: CheckResult[] = [];
    for (const [mode, trial, kind] of [
      ["skill", 0, undefined],
      ["baseline", 0, "timeout"],
      ["baseline", 1, "contaminated"],
    ] as const) {
      const rec = mkTrial({
        caseId: "c",
        mode,
        trial,
        output: "x",
        ...(kind ? { error: { kind, message: "no usable answer" } } : {}),
      });
      checks.push(
        ...(await gradeTrial({ suite: s2, caseDef, trial: rec, vars: {}, repoDir: "/x", gateSeed: 1 })),
      );
    }
    const s = summariseDiscriminator(checks);
    expect(s.skill.passRate).toMatchObject({ rate: 1, units: 1, trials: 1 });
    expect(s.baseline).toMatchObject({ trials: 2, errors: 2 });
    // The tempting wrong answer: count the baseline's skipped assertions as failures, and report lift +1.
    expect(s.baseline.passRate).toMatchObject({ units: 0, measured: false });
    expect(s.lift).toBe(0);
    expect(s.warnings).toContain("no evaluated trial in one of the modes (all errored?): lift not measured");
  });
});

const loc = (line: number) => ({ file: ".agent/evals/split-cents/trigger-eval.json", line, column: 5 });
const q = (prompt: string, line: number) => ({ prompt, weight: 1, loc: loc(line) });

const splitTrigger: TriggerSet = {
  shouldFire: [
    q("Split 1000 cents among 3 people", 3),
    q("Allocate a refund of 500 cents by weights", 4),
    q("Divide the bill between friends, money in cents", 5),
    q("Share a restaurant bill among people without losing a cent", 6),
    q("Round each share of the total", 7),
  ],
  shouldNotFire: [
    q("Write a tenant-safe SQL handler for invoices", 10),
    q("Fix the colour contrast of my buttons", 11),
    q("Format an invoice amount in cents as a money string", 12),
    q("Sum the invoice amounts in cents for the refund report", 13),
  ],
  loc: loc(1),
};
const sqlTrigger: TriggerSet = {
  shouldFire: [q("Make my SQL query handler safe for multi-tenant databases", 3)],
  shouldNotFire: [],
  loc: loc(1),
};
const catalogue = [
  {
    name: "split-cents",
    description:
      "Split an amount of money in cents among people or by weights without losing a cent, using the largest remainder method. For invoices, bills, refunds and allocations.",
    trigger: splitTrigger,
  },
  {
    name: "tenant-sql",
    description:
      "Write SQL query handlers for multi-tenant databases that never leak rows across tenants: parameterised queries, tenant_id filters, injection safety.",
    trigger: sqlTrigger,
  },
  {
    name: "contrast-check",
    description:
      "Check colour contrast of UI palettes against WCAG 2.2: foreground and background colours, text ratios.",
  },
];

async function routeRuns(queries: IndexedTriggerQuery[], runs: number): Promise<CheckResult[]> {
  const adapter = createLexicalAdapter({ adapter: "lexical" });
  const ctx = {} as AgentRunContext; // the lexical router reads nothing from the workspace
  const checks: CheckResult[] = [];
  for (const [n, query] of queries.entries()) {
    for (let t = 0; t < runs; t++) {
      const res = await adapter.run(
        {
          key: `k${n}-${t}`,
          skill: "split-cents",
          caseId: `trigger:${n}`,
          mode: "trigger",
          trial: t,
          prompt: query.prompt,
          files: [],
          install: catalogue.map((s) => ({
            name: s.name,
            description: s.description,
            sourceDir: "/x",
            files: [],
            contentHash: "h",
          })),
          seed: 1,
        },
        ctx,
      );
      const record: TrialRecord = {
        ...res,
        key: "k",
        skill: "split-cents",
        caseId: `trigger:${n}`,
        mode: "trigger",
        trial: t,
        durationMs: 0,
      };
      checks.push(gradeTriggerTrial(query, record, "split-cents"));
    }
  }
  return checks;
}

describe("trigger battery through the lexical router", () => {
  it("gives exact run- and query-level precision, recall, F1 and accuracy", async () => {
    const queries = triggerQueries(splitTrigger);
    const checks = await routeRuns(queries, 3);
    const s = summariseTrigger(checks, queries, { router: "lexical", proxy: true });
    // Fires on 4 of 5 should-fire prompts (not "Round each share of the total") and on 2 of 4 should-not-fire.
    expect(s.queries.map((x) => x.fired)).toEqual([3, 3, 3, 3, 0, 0, 0, 3, 3]);
    // Each query one vote, its rate from its own 3 runs: fire rates 1,1,1,1,0 and 0,0,1,1.
    expect(s.precision).toMatchObject({ units: 9, trials: 27, unit: "query", measured: true });
    expect(s.precision.rate).toBeCloseTo(4 / 6, 12);
    expect(s.precision.low).toBeLessThan(4 / 6);
    expect(s.recall).toMatchObject({ units: 5, passing: 4, trials: 15, rate: 0.8 });
    // Hoeffding at 2.5 % each side: sqrt(ln 40 / 2 · 5 · (1/5)² / 3) = 0.3507.
    expect(s.recall.low).toBeCloseTo(0.8 - 0.35065, 4);
    expect(s.f1).toBeCloseTo(0.727273, 5);
    expect(s.accuracy).toMatchObject({ units: 9, passing: 6, trials: 27 });
    expect(s.accuracy.rate).toBeCloseTo(6 / 9, 12);
    expect(s.proxy).toBe(true);
    expect(s.warnings[0]).toContain("proxy");
    const miss = s.queries[4]!;
    expect(miss).toMatchObject({ checkId: "trigger/fire/4", passed: false, rate: 0, line: 7 });
    const fp = checks.find((c) => c.checkId === "trigger/nofire/2")!;
    expect(fp.status).toBe("fail");
    expect(fp.message).toContain(".agent/evals/split-cents/trigger-eval.json:12:5:");
    expect(fp.message).toContain("expected split-cents does not fire; saw activated: split-cents");
    const other = s.queries.find((x) => x.checkId === "trigger/nofire/0")!;
    expect(other.firedOthers).toEqual({ "tenant-sql": 3 });
  });

  it("errors are errors, not misses; a never-firing skill is flagged", async () => {
    const queries = triggerQueries(splitTrigger);
    const base = mkTrial({ mode: "trigger", skillsActivated: [] });
    const errored = gradeTriggerTrial(
      queries[0]!,
      { ...base, error: { kind: "crash", message: "exit 1" } },
      "split-cents",
    );
    expect(errored.status).toBe("error");
    const unregistered = gradeTriggerTrial(
      queries[0]!,
      { ...base, skillsRegistered: ["other"] },
      "split-cents",
    );
    expect(unregistered.status).toBe("error");
    const silent = queries.map((qq) => gradeTriggerTrial(qq, base, "split-cents"));
    const s = summariseTrigger([...silent, errored], queries, { router: "claude-code", proxy: false });
    expect(s.recall.rate).toBe(0);
    expect(s.precision.rate).toBe(1);
    expect(s.recall.units).toBe(5);
    expect(s.warnings.join("\n")).toContain("suspicious: recall 0 with precision 1");
    expect(s.warnings.join("\n")).toContain("1 trigger run errored");
    const all = queries.map((qq) =>
      gradeTriggerTrial(qq, { ...base, skillsActivated: ["split-cents"] }, "split-cents"),
    );
    expect(summariseTrigger(all, queries, { router: "x", proxy: false }).warnings.join("\n")).toContain(
      "fired on every prompt",
    );
  });

  it("weights waza medium-confidence queries by 0.5", () => {
    const fire = { prompt: "a", weight: 1, loc: loc(3) };
    const medium = { prompt: "b", weight: 0.5, loc: loc(4) };
    const qs = triggerQueries({ shouldFire: [fire, medium], shouldNotFire: [], loc: loc(1) });
    const base = mkTrial({ mode: "trigger" });
    const checks = [
      gradeTriggerTrial(qs[0]!, { ...base, skillsActivated: ["split-cents"] }, "split-cents"),
      gradeTriggerTrial(qs[1]!, base, "split-cents"),
    ];
    const s = summariseTrigger(checks, qs, { router: "x", proxy: false });
    // Query a fired (weight 1), b did not (weight 0.5): (1 · 1 + 0.5 · 0) / 1.5.
    expect(s.recall).toMatchObject({ units: 2, passing: 1, trials: 2 });
    expect(s.recall.rate).toBeCloseTo(2 / 3, 12);
  });

  it("cross-skill negatives and the confusion table", async () => {
    const cross = crossSkillQueries("split-cents", catalogue);
    expect(cross.map((c) => c.prompt)).toEqual(["Make my SQL query handler safe for multi-tenant databases"]);
    const own = triggerQueries(splitTrigger);
    const checks = await routeRuns([...own, ...cross], 1);
    const crossCheck = checks.find((c) => c.checkId === "trigger/cross/tenant-sql/0")!;
    expect(crossCheck.status).toBe("pass");
    const table = confusionTable(checks);
    expect(table.labels).toEqual(
      ["split-cents", "tenant-sql", "contrast-check", "(none)"].sort((a, b) =>
        a === "(none)" ? 1 : b === "(none)" ? -1 : a.localeCompare(b),
      ),
    );
    expect(table.counts["split-cents"]).toEqual({ "split-cents": 4, "(none)": 1 });
    expect(table.counts["(none)"]).toEqual({ "tenant-sql": 1, "contrast-check": 1, "split-cents": 2 });
    expect(table.counts["tenant-sql"]).toEqual({ "tenant-sql": 1 });
  });
});
