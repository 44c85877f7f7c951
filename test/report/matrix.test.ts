import { describe, expect, it } from "vitest";
import { buildAnnotations } from "../../src/github/annotations.js";
import type { CheckResult, EvidenceCheck, Report, SkillReport } from "../../src/model/index.js";
import { tagCell } from "../../src/pipeline/matrix.js";
import { renderMarkdown } from "../../src/report/markdown.js";
import { mergeReports } from "../../src/report/merge.js";
import { renderTerminal } from "../../src/report/terminal.js";
import { DEFAULT_VERDICT_POLICY } from "../../src/settings/defaults.js";
import { cellAlpha, cellBudget, matrixCells, resolveMatrix } from "../../src/settings/matrix.js";
import { isBlocking } from "../../src/verdict/decide.js";
import {
  bootstrapMeans,
  estimateEffect,
  quantile,
  seededRandom,
  trialScores,
} from "../../src/verdict/interaction.js";
import { decideNewRoots } from "../../src/verdict/new-roots.js";
import { makeReport, makeRoot, makeSkill } from "../github/fixtures.js";

/** Evidence of one arm: per case, per trial, the statuses of its checks. */
function evidence(
  cases: Record<string, EvidenceCheck["status"][][]>,
  skill = "split-cents",
): EvidenceCheck[] {
  return Object.entries(cases).flatMap(([caseId, trials]) =>
    trials.flatMap((statuses, trial) =>
      statuses.map((status, k) => ({
        checkId: `${caseId}/a${k}`,
        skill,
        caseId,
        assertionId: `a${k}`,
        mode: "skill" as const,
        trial,
        status,
        discriminator: false,
        message: "",
        dependsOn: [],
        loc: { file: "s.yaml", line: 1, column: 1 },
      })),
    ),
  );
}

const P = "pass" as const;
const F = "fail" as const;

function cellReport(name: string, skill: Partial<SkillReport>, over: Partial<Report> = {}): Report {
  const report = makeReport({ skills: [makeSkill(skill)], ...over });
  return tagCell(report, {
    name,
    adapter: name,
    identity: `${name}/1.0`,
    required: true,
    selected: true,
  });
}

describe("trial scores and the bootstrap (seeds/002 §6)", () => {
  it("scores a trial as the share of its graded checks that passed (skipped checks aside, errors failing)", () => {
    const checks = evidence({
      c1: [
        [P, F, "skipped"],
        [P, P, P],
      ],
      c2: [["error", P]],
    });
    // hand: c1 trial 0 → 1 of 2 graded = 0.5; c1 trial 1 → 3/3 = 1; c2 trial 0 → 1/2 = 0.5
    expect([...trialScores(checks)]).toEqual([
      ["c1", [0.5, 1]],
      ["c2", [0.5]],
    ]);
    // baseline-mode checks are not the skill's effect
    expect(trialScores(checks.map((c) => ({ ...c, mode: "baseline" as const }))).size).toBe(0);
  });

  it("is reproducible from its seed and resamples within each case", () => {
    const scores = new Map([
      ["a", [0, 1]],
      ["b", [1, 1, 1]],
    ]);
    const x = bootstrapMeans(scores, seededRandom("s"), 500);
    const y = bootstrapMeans(scores, seededRandom("s"), 500);
    expect([...x]).toEqual([...y]);
    // case b always contributes 3 of 5 units at 1: every resample's mean is in {3/5, 4/5, 5/5}
    expect(new Set([...x].map((m) => Math.round(m * 5)))).toEqual(new Set([3, 4, 5]));
  });

  it("matches the hand computation on a small design", () => {
    // One case. Head trials score 0 and 1; base trials score 1 and 1.
    // Point effect: mean(0, 1) − mean(1, 1) = 0.5 − 1 = −0.5.
    // A head resample of 2 draws has mean 0 (p 1/4), 0.5 (p 1/2) or 1 (p 1/4); base is always 1.
    // So the effect's bootstrap distribution is −1 (1/4), −0.5 (1/2), 0 (1/4): its 2.5 % quantile is −1 and its
    // 97.5 % quantile is 0 (with 20,000 resamples, fewer than 2.5 % at −1 has probability ~1e-300).
    const e = estimateEffect(
      evidence({ c: [[F], [P]] }),
      evidence({ c: [[P], [P]] }),
      "42|cell|split-cents",
    )!;
    expect(e.effect).toEqual({
      head: { mean: 0.5, trials: 2 },
      base: { mean: 1, trials: 2 },
      effect: -0.5,
      low: -1,
      high: 0,
    });
    expect(quantile(Float64Array.from([0, 10]), 0.25)).toBe(2.5);
  });

  it("counts only cases both arms ran", () => {
    const e = estimateEffect(evidence({ c: [[P]], newcase: [[F]] }), evidence({ c: [[F]] }), "x")!;
    expect(e.effect.head).toEqual({ mean: 1, trials: 1 });
    expect(estimateEffect(evidence({ a: [[P]] }), evidence({ b: [[P]] }), "x")).toBeUndefined();
  });
});

/**
 * One cell's run of case `c` of `skill`, recorded honestly: a first batch of 3 trials per arm, then every
 * confirmation trial the real decider asks for, numbered on, so that `merge` — which recomputes each report's
 * verdict from its evidence — believes it. `headFails`/`baseFails` say whether each arm's trials fail the check.
 */
async function recordedCell(
  cell: string,
  skill: string,
  arms: { headFails: boolean; baseFails: boolean },
  over: Partial<Report> = {},
): Promise<Report> {
  const policy = { ...DEFAULT_VERDICT_POLICY };
  const trial = (arm: boolean, t: number): EvidenceCheck => ({
    ...evidence({ c: [[arm ? F : P]] }, skill)[0]!,
    trial: t,
  });
  const batch = (fails: boolean, from: number, n: number) =>
    Array.from({ length: n }, (_, i) => trial(fails, from + i));
  const head = batch(arms.headFails, 0, 3);
  const base = batch(arms.baseFails, 0, 3);
  const decisions = await decideNewRoots(
    head as CheckResult[],
    base as CheckResult[],
    policy,
    async (req) => {
      const extra = req[0]!.extraTrials;
      const more = {
        head: batch(arms.headFails, head.length, extra.head),
        base: batch(arms.baseFails, base.length, extra.base),
      };
      head.push(...more.head);
      base.push(...more.base);
      return more as { head: CheckResult[]; base: CheckResult[] };
    },
  );
  const roots = decisions.map((d) =>
    makeRoot({ id: d.checkId, skill, status: d.status, blocking: isBlocking(d, policy) }),
  );
  const firstBatch = { perCase: 3, triggerRuns: 3 };
  return cellReport(cell, { name: skill, roots, evidence: { firstBatch, head, base } }, over);
}

describe("merging the cells of an agent matrix", () => {
  const hurts = { headFails: true, baseFails: false };
  const helps = { headFails: false, baseFails: true };
  const holds = { headFails: false, baseFails: false };

  it("accepts one skill in two cells (the old merge: 'skill … is in two reports'), per-cell verdicts, the interaction flagged", async () => {
    const claude = await recordedCell("claude", "split-cents", hurts);
    const codex = await recordedCell("codex", "split-cents", helps);
    expect(codex.skills[0]!.roots).toEqual([]);
    const m = mergeReports([
      { source: "claude.json", report: claude },
      { source: "codex.json", report: codex },
    ]);
    expect(m.errors).toEqual([]);
    expect(m.verdict).toBe("fail");
    expect(m.agent).toEqual({ adapter: "matrix", identity: "claude=claude/1.0, codex=codex/1.0" });
    expect(m.skills.map((s) => [s.name, s.cell, s.verdict])).toEqual([
      ["split-cents", "claude", "fail"],
      ["split-cents", "codex", "pass"],
    ]);
    expect(m.blockingRoots.map((r) => r.cell)).toEqual(["claude"]);
    const mx = m.matrix!;
    expect(mx.cells.map((c) => [c.name, c.verdict, c.blockingRoots])).toEqual([
      ["claude", "fail", 1],
      ["codex", "pass", 0],
    ]);
    // hand: claude's head scores 0, base 1 → effect −1 with a degenerate interval; codex +1; interaction −2
    expect(mx.entries.map((e) => [e.cell, e.effect?.effect, e.effect?.low, e.effect?.high])).toEqual([
      ["claude", -1, -1, -1],
      ["codex", 1, 1, 1],
    ]);
    expect(mx.interactions).toHaveLength(1);
    expect(mx.interactions[0]).toMatchObject({
      skill: "split-cents",
      a: "claude",
      b: "codex",
      difference: -2,
      low: -2,
      high: -2,
      excludesZero: true,
      flagged: true,
    });
    expect(mx.interactions[0]!.message).toMatch(/hurts claude .* helps codex/);
    expect(mx.bootstrap).toMatchObject({ resamples: 20_000, seed: 42, level: 0.95 });
    // rendered in the summary and the terminal
    const md = renderMarkdown(m, { maxChars: 65_535, fullReportHint: "x" });
    expect(md).toContain("### Agent matrix");
    expect(md).toMatch(/⚠️ \*\*split-cents, claude vs codex: the change hurts claude/);
    expect(md).toContain("split-cents (cell claude)");
    expect(renderTerminal(m, { color: false })).toMatch(/FLAGGED interaction split-cents, claude vs codex/);
  });

  it("refuses a cell report whose roots do not follow from its evidence", async () => {
    const honest = await recordedCell("claude", "split-cents", hurts);
    const forged = {
      ...honest,
      skills: honest.skills.map((s) => ({
        ...s,
        roots: [],
        blockingRoots: [],
        newRoots: [],
        verdict: "pass" as const,
      })),
      blockingRoots: [],
      newRoots: [],
      verdict: "pass" as const,
    };
    const m = mergeReports([{ source: "claude.json", report: forged }]);
    expect(m.verdict).toBe("error");
    expect(m.errors.join("\n")).toMatch(
      /claude\.json is refused: .*c\/a0 is new by the evidence but missing/,
    );
  });

  it("annotates a root once per cell that has it (the same line can fail in two cells)", async () => {
    const m = mergeReports([
      { source: "a", report: await recordedCell("claude", "split-cents", hurts) },
      { source: "b", report: await recordedCell("codex", "split-cents", hurts) },
    ]);
    expect(m.errors).toEqual([]);
    const titles = buildAnnotations(m).annotations.map((a) => a.title);
    expect(titles).toEqual([
      "skillgate · split-cents (cell claude): D:no-lost-cent fails",
      "skillgate · split-cents (cell codex): D:no-lost-cent fails",
    ]);
  });

  it("a cell that is not required is reported, never blocking", async () => {
    const claude = await recordedCell("claude", "split-cents", holds);
    const codex = await recordedCell("codex", "split-cents", hurts);
    const cells = matrixCells([
      { name: "claude", adapter: "claude-code" },
      { name: "codex", adapter: "codex", required: false },
    ]);
    const m = mergeReports(
      [
        { source: "a", report: claude },
        { source: "b", report: codex },
      ],
      { cells },
    );
    expect(m.errors).toEqual([]);
    expect(m.verdict).toBe("pass");
    expect(m.blockingRoots).toEqual([]);
    expect(m.newRoots.map((r) => r.cell)).toEqual(["codex"]);
    expect(m.matrix!.cells.map((c) => [c.name, c.required, c.verdict])).toEqual([
      ["claude", true, "pass"],
      ["codex", false, "fail"],
    ]);
  });

  it("fails closed: a required cell without a report, a cell the base does not define, a report without a cell", () => {
    const cells = matrixCells([
      { name: "claude", adapter: "claude-code" },
      { name: "codex", adapter: "codex" },
    ]);
    const only = mergeReports([{ source: "a", report: cellReport("claude", { roots: [] }) }], { cells });
    expect(only.verdict).toBe("error");
    expect(only.errors).toContain("no report of the required cell codex: it was not evaluated");
    const stranger = mergeReports(
      [
        { source: "a", report: cellReport("claude", { roots: [] }) },
        { source: "b", report: cellReport("codex", { roots: [] }) },
        { source: "c", report: cellReport("gemini", { roots: [] }) },
      ],
      { cells },
    );
    expect(stranger.verdict).toBe("error");
    expect(stranger.errors.join("\n")).toMatch(
      /c is of cell gemini, which the base config's agents: matrix does not define/,
    );
    const plain = mergeReports(
      [
        { source: "a", report: cellReport("claude", { roots: [] }) },
        { source: "p.json", report: makeReport({ skills: [makeSkill({ roots: [] })] }) },
      ],
      { cells },
    );
    expect(plain.verdict).toBe("error");
    expect(plain.errors.join("\n")).toMatch(/p\.json is not the report of a cell/);
    // a skill twice within one cell is still an error
    const twice = mergeReports([
      { source: "x", report: cellReport("claude", { roots: [] }) },
      { source: "y", report: cellReport("claude", { roots: [] }) },
    ]);
    expect(twice.errors.join("\n")).toMatch(/skill split-cents of cell claude is in two reports: x and y/);
  });

  it("a cell's shards merge within the cell; a missing shard of one cell is named", async () => {
    const shard = (cell: string, i: number, skill: string) =>
      recordedCell(cell, skill, holds, { shard: { index: i, total: 2 } });
    const m = mergeReports([
      { source: "c1", report: await shard("claude", 1, "a") },
      { source: "c2", report: await shard("claude", 2, "b") },
      { source: "x1", report: await shard("codex", 1, "a") },
    ]);
    expect(m.verdict).toBe("error");
    expect(m.errors).toEqual(["missing shard report of cell codex: 2/2 — their skills were not evaluated"]);
    expect(m.skills.map((s) => `${s.name}@${s.cell}`)).toEqual(["a@claude", "a@codex", "b@claude"]);
  });
});

describe("the matrix settings", () => {
  const cells = matrixCells([
    { name: "claude", adapter: "claude-code", model: "m1" },
    { name: "codex", adapter: "codex" },
    { name: "nightly", adapter: "codex", required: false, label: "all-models" },
  ]);
  it("splits α over the required cells and the budget over every cell", () => {
    expect(cellAlpha(0.01, cells)).toBe(0.005);
    expect(cellBudget({ maxUsd: 3, maxAgentCalls: 100 }, cells)).toEqual({ maxUsd: 1, maxAgentCalls: 33 });
  });
  it("selects cells by name; a name the config does not define is a usage error", () => {
    const config = [
      { name: "claude", adapter: "claude-code" },
      { name: "codex", adapter: "codex" },
    ];
    expect(resolveMatrix(config, undefined).selected).toEqual(["claude", "codex"]);
    expect(resolveMatrix(config, "codex")).toMatchObject({ selected: ["codex"], single: true });
    expect(() => resolveMatrix(config, "codex,gpt")).toThrow(
      /no cell named gpt; the config's agents are claude, codex/,
    );
    expect(cells[0]).toEqual({
      name: "claude",
      agent: { adapter: "claude-code", model: "m1" },
      required: true,
    });
  });
});
