import type { Report, Root, SkillReport } from "../../src/model/report.js";

/** Builders for Report records used by the GitHub/report tests (shapes per src/model/report.ts). */

export function makeRoot(over: Partial<Root> = {}): Root {
  return {
    id: "split-1000-3/D:no-lost-cent",
    kind: "assertion",
    skill: "split-cents",
    status: "new",
    title: "D:no-lost-cent fails",
    message: "expected the first part not to be 333; saw 333 in 4 of 5 trials",
    head: { failed: 4, trials: 5 },
    base: { failed: 0, trials: 5 },
    pValue: 0.004,
    cascaded: [],
    blocking: true,
    file: ".agent/evals/split-cents/prompts/split-1000-3.yaml",
    line: 9,
    column: 5,
    ...over,
  };
}

/** A battery figure over `units` cases (one vote each), as the report carries it. */
const rate = (passed: number, units: number) => ({
  rate: units ? passed / units : 0,
  low: 0,
  high: 1,
  units,
  passing: passed,
  trials: units * 5,
  unit: "case" as const,
  measured: units > 0,
});

export function makeSkill(over: Partial<SkillReport> = {}): SkillReport {
  const roots = over.roots ?? [makeRoot()];
  return {
    name: "split-cents",
    path: ".claude/skills/split-cents/SKILL.md",
    change: "body",
    version: "1.2.0",
    discriminator: {
      skill: { trials: 5, errors: 0, passRate: rate(40, 50), discriminatorPassRate: rate(1, 5) },
      baseline: { trials: 5, errors: 0, passRate: rate(30, 50), discriminatorPassRate: rate(0, 5) },
      lift: 0.2,
      discriminatorLift: 0.2,
      styleGuideNotGuardrail: false,
      assertions: [],
      cases: { skill: [], baseline: [] },
    },
    base: {
      discriminator: {
        skill: { trials: 5, errors: 0, passRate: rate(48, 50), discriminatorPassRate: rate(5, 5) },
        baseline: { trials: 5, errors: 0, passRate: rate(30, 50), discriminatorPassRate: rate(0, 5) },
        lift: 0.36,
        discriminatorLift: 1,
        styleGuideNotGuardrail: false,
        assertions: [],
        cases: { skill: [], baseline: [] },
      },
    },
    gates: [],
    roots,
    blockingRoots: roots.filter((r) => r.blocking),
    newRoots: roots.filter((r) => r.status === "new"),
    failedChecks: 4,
    errors: [],
    verdict: roots.some((r) => r.blocking) ? "fail" : "pass",
    reasons: roots.some((r) => r.blocking) ? ["1 new root failure"] : [],
    cost: { usd: 0.5, agentCalls: 10, cacheHits: 0, byMode: {} },
    ...over,
  };
}

export function makeReport(over: Partial<Report> = {}): Report {
  const skills = over.skills ?? [makeSkill()];
  const newRoots = skills.flatMap((s) => s.newRoots);
  const blockingRoots = skills.flatMap((s) => s.blockingRoots);
  return {
    schemaVersion: 2,
    tool: { name: "skillgate", version: "0.1.0" },
    verdict: skills.some((s) => s.verdict === "fail") ? "fail" : "pass",
    seed: 42,
    startedAt: "2026-11-29T12:00:00.000Z",
    durationMs: 1234,
    repo: "/tmp/repo",
    head: { ref: "feature", sha: "ec26c3e57ca3a959ca5aad62de7213c562f8c821" },
    base: { ref: "main", sha: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e" },
    agent: { adapter: "replay", identity: "replay@1" },
    trials: 5,
    skills,
    policy: { origin: "base commit f95f852bd8fc (.skillgate.yml)", roots: [] },
    blockingRoots,
    newRoots,
    diagnostics: [],
    stats: { failedChecks: 4, roots: newRoots.length, meanFailedChecksPerTrial: 0.4, meanRootsPerTrial: 0.1 },
    cost: { usd: 0.5, agentCalls: 10, cacheHits: 0, inputTokens: 1000, outputTokens: 500 },
    errors: [],
    ...over,
  };
}

/** `n` distinct new roots of one skill, at lines 1..n of one suite file. */
export function manyRoots(n: number, over: Partial<Root> = {}): Root[] {
  return Array.from({ length: n }, (_, i) =>
    makeRoot({ id: `case-${i}/a-${i}`, title: `assertion a-${i} fails`, line: i + 1, ...over }),
  );
}
