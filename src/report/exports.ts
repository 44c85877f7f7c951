/**
 * skill-creator-compatible exports: `benchmark.json` per skill and `grading.json` per run, in the workspace layout
 * its aggregator and viewer read (`eval-<id>/<with_skill|without_skill>/run-<n>/grading.json`). Field names are
 * theirs, exactly: expectations carry `text`, `passed`, `evidence`; runs carry `configuration` and a nested `result`.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { CheckResult } from "../model/check.js";
import type { DiscriminatorSummary } from "../model/report.js";
import type { Assertion, Suite } from "../model/suite.js";
import type { TrialRecord } from "../model/trial.js";
import { outputRedactor } from "../util/redact.js";

export type Configuration = "with_skill" | "without_skill";

export interface GradingExpectation {
  text: string;
  passed: boolean;
  evidence: string;
}

export interface GradingJson {
  expectations: GradingExpectation[];
  summary: { passed: number; failed: number; total: number; pass_rate: number };
  execution_metrics: {
    tool_calls: Record<string, number>;
    total_tool_calls: number;
    total_steps: number;
    errors_encountered: number;
    output_chars: number;
  };
  timing: { executor_duration_seconds: number; total_duration_seconds: number };
}

interface Stats {
  mean: number;
  stddev: number;
  min: number;
  max: number;
}

export interface BenchmarkRun {
  eval_id: number;
  eval_name: string;
  configuration: Configuration;
  run_number: number;
  result: {
    pass_rate: number;
    passed: number;
    failed: number;
    total: number;
    time_seconds: number;
    tokens: number;
    tool_calls: number;
    errors: number;
  };
  expectations: GradingExpectation[];
  notes: string[];
}

export interface BenchmarkJson {
  metadata: {
    skill_name: string;
    skill_path: string;
    executor_model: string;
    analyzer_model: string;
    timestamp: string;
    evals_run: number[];
    runs_per_configuration: number;
  };
  runs: BenchmarkRun[];
  run_summary: Partial<Record<Configuration, { pass_rate: Stats; time_seconds: Stats; tokens: Stats }>> & {
    delta: { pass_rate: string; time_seconds: string; tokens: string };
  };
  notes: string[];
}

export interface ExportInput {
  skill: { name: string; path: string };
  suite: Suite;
  /** Skill and baseline trial records (trigger records are ignored). */
  records: TrialRecord[];
  /** The graded checks of those records. */
  checks: CheckResult[];
  discriminator?: DiscriminatorSummary;
  executorModel?: string;
  /** ISO time of the run. */
  timestamp: string;
}

const ROUND = 1e4;
const round4 = (x: number) => Math.round(x * ROUND) / ROUND;

function configurationOf(mode: string): Configuration | undefined {
  return mode === "skill" ? "with_skill" : mode === "baseline" ? "without_skill" : undefined;
}

/** The sentence a grading expectation shows for an assertion. */
function expectationText(a: Assertion | undefined, assertionId: string): string {
  if (!a) return assertionId;
  if (a.description) return a.description;
  if (a.type === "judge" && typeof a.params.value === "string") return a.params.value;
  const shown = JSON.stringify(a.params);
  return `${a.id}: ${a.rawType}${shown && shown !== "{}" ? ` ${shown.length > 200 ? `${shown.slice(0, 200)}…` : shown}` : ""}`;
}

function assertionIndex(suite: Suite): Map<string, Assertion> {
  const m = new Map<string, Assertion>();
  for (const c of suite.cases) for (const a of c.assertions) m.set(`${c.id}/${a.id}`, a);
  return m;
}

function expectationsOf(checks: CheckResult[], index: Map<string, Assertion>): GradingExpectation[] {
  return checks
    .filter(
      (c) => c.assertionId !== "trial-ok" && !(c.status === "skipped" && c.skipReason === "condition false"),
    )
    .map((c) => ({
      text: expectationText(index.get(c.checkId), c.assertionId),
      passed: c.status === "pass",
      evidence:
        c.status === "skipped"
          ? `not evaluated: ${c.skipReason ?? "skipped"}`
          : c.status === "error"
            ? `error: ${c.message}`
            : c.evidence
              ? `${c.evidence} — ${c.message}`
              : c.message,
    }));
}

export function buildGrading(record: TrialRecord, checks: CheckResult[], suite: Suite): GradingJson {
  const mine = checks.filter(
    (c) => c.caseId === record.caseId && c.mode === record.mode && c.trial === record.trial,
  );
  const expectations = expectationsOf(mine, assertionIndex(suite));
  const passed = expectations.filter((e) => e.passed).length;
  const toolCounts: Record<string, number> = {};
  for (const call of record.toolCalls) toolCounts[call.name] = (toolCounts[call.name] ?? 0) + 1;
  const turns = record.toolCalls.reduce((m, c) => Math.max(m, c.turn + 1), 0);
  const seconds = round4(record.durationMs / 1000);
  return {
    expectations,
    summary: {
      passed,
      failed: expectations.length - passed,
      total: expectations.length,
      pass_rate: expectations.length ? round4(passed / expectations.length) : 0,
    },
    execution_metrics: {
      tool_calls: toolCounts,
      total_tool_calls: record.toolCalls.length,
      total_steps: turns,
      errors_encountered: (record.error ? 1 : 0) + record.toolCalls.filter((c) => c.isError).length,
      output_chars: record.output.length,
    },
    timing: { executor_duration_seconds: seconds, total_duration_seconds: seconds },
  };
}

function stats(values: number[]): Stats {
  if (values.length === 0) return { mean: 0, stddev: 0, min: 0, max: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const sd =
    values.length > 1 ? Math.sqrt(values.reduce((a, x) => a + (x - mean) ** 2, 0) / (values.length - 1)) : 0;
  return {
    mean: round4(mean),
    stddev: round4(sd),
    min: round4(Math.min(...values)),
    max: round4(Math.max(...values)),
  };
}

function signed(x: number, digits: number): string {
  const s = x.toFixed(digits);
  return x >= 0 && !s.startsWith("-") ? `+${s}` : s;
}

export function buildBenchmark(input: ExportInput): BenchmarkJson {
  const caseOrder = new Map(input.suite.cases.map((c, i) => [c.id, i + 1]));
  const runs: BenchmarkRun[] = [];
  for (const r of input.records) {
    const configuration = configurationOf(r.mode);
    const evalId = caseOrder.get(r.caseId);
    if (!configuration || evalId === undefined) continue;
    const g = buildGrading(r, input.checks, input.suite);
    runs.push({
      eval_id: evalId,
      eval_name: r.caseId,
      configuration,
      run_number: r.trial + 1,
      result: {
        pass_rate: g.summary.pass_rate,
        passed: g.summary.passed,
        failed: g.summary.failed,
        total: g.summary.total,
        time_seconds: g.timing.total_duration_seconds,
        tokens: r.usage.inputTokens + r.usage.outputTokens,
        tool_calls: r.toolCalls.length,
        errors: g.execution_metrics.errors_encountered,
      },
      expectations: g.expectations,
      notes: [...(r.error ? [`${r.error.kind}: ${r.error.message}`] : []), ...(r.notes ?? [])],
    });
  }
  // skill-creator's viewer expects each with_skill run before its baseline counterpart.
  runs.sort(
    (a, b) =>
      a.eval_id - b.eval_id ||
      (a.configuration === b.configuration ? 0 : a.configuration === "with_skill" ? -1 : 1) ||
      a.run_number - b.run_number,
  );
  const summary = (c: Configuration) => {
    const rs = runs.filter((r) => r.configuration === c);
    if (rs.length === 0) return undefined;
    return {
      pass_rate: stats(rs.map((r) => r.result.pass_rate)),
      time_seconds: stats(rs.map((r) => r.result.time_seconds)),
      tokens: stats(rs.map((r) => r.result.tokens)),
    };
  };
  const withSkill = summary("with_skill");
  const without = summary("without_skill");
  const d = (k: "pass_rate" | "time_seconds" | "tokens") =>
    (withSkill?.[k].mean ?? 0) - (without?.[k].mean ?? 0);
  const perConfig = new Map<string, number>();
  for (const r of runs)
    perConfig.set(
      `${r.eval_id}/${r.configuration}`,
      (perConfig.get(`${r.eval_id}/${r.configuration}`) ?? 0) + 1,
    );
  return {
    metadata: {
      skill_name: input.skill.name,
      skill_path: input.skill.path,
      executor_model: input.executorModel ?? "unknown",
      analyzer_model: "skillgate (deterministic assertions)",
      timestamp: input.timestamp,
      evals_run: [...new Set(runs.map((r) => r.eval_id))].sort((a, b) => a - b),
      runs_per_configuration: Math.max(0, ...perConfig.values()),
    },
    runs,
    run_summary: {
      ...(withSkill ? { with_skill: withSkill } : {}),
      ...(without ? { without_skill: without } : {}),
      delta: {
        pass_rate: signed(d("pass_rate"), 2),
        time_seconds: signed(d("time_seconds"), 1),
        tokens: signed(d("tokens"), 0),
      },
    },
    notes: benchmarkNotes(input.discriminator),
  };
}

/** The analyst's observations skill-creator asks for, from the assertion classes. */
function benchmarkNotes(s: DiscriminatorSummary | undefined): string[] {
  if (!s) return [];
  const notes: string[] = [];
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  for (const a of s.assertions) {
    const where = `${a.checkId} (${a.file}:${a.line})`;
    if (a.class === "non-discriminating") {
      notes.push(
        `Assertion ${where} passes ${pct(a.skill.rate)} with and ${pct(a.baseline?.rate ?? 0)} without the skill - does not measure the skill`,
      );
    } else if (a.class === "flaky") {
      notes.push(
        `Assertion ${where} gives mixed results within a configuration (with skill ${a.skill.passed}/${a.skill.total}${a.baseline ? `, without ${a.baseline.passed}/${a.baseline.total}` : ""}) - flaky`,
      );
    } else if (a.class === "broken") {
      notes.push(`Assertion ${where} fails in both configurations - broken or too strict`);
    } else if (a.class === "skill-hurts") {
      notes.push(`Assertion ${where} passes only without the skill - the skill hurts here`);
    }
  }
  if (s.styleGuideNotGuardrail)
    notes.push("Overall lift without discriminator lift: a style guide, not a guardrail");
  return notes;
}

/** Writes `benchmark.json` and every run's `grading.json` under `dir`; returns the written paths. */
export async function writeSkillCreatorExports(dir: string, input: ExportInput): Promise<string[]> {
  const written: string[] = [];
  const put = async (file: string, data: unknown) => {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify(outputRedactor().redactDeep(data), null, 2)}\n`);
    written.push(file);
  };
  const caseOrder = new Map(input.suite.cases.map((c, i) => [c.id, i + 1]));
  for (const c of input.suite.cases) {
    const evalId = caseOrder.get(c.id)!;
    if (!input.records.some((r) => r.caseId === c.id && configurationOf(r.mode))) continue;
    await put(path.join(dir, `eval-${evalId}`, "eval_metadata.json"), {
      eval_id: evalId,
      eval_name: c.id,
      prompt: c.prompt,
    });
  }
  for (const r of input.records) {
    const configuration = configurationOf(r.mode);
    const evalId = caseOrder.get(r.caseId);
    if (!configuration || evalId === undefined) continue;
    await put(
      path.join(dir, `eval-${evalId}`, configuration, `run-${r.trial + 1}`, "grading.json"),
      buildGrading(r, input.checks, input.suite),
    );
  }
  await put(path.join(dir, "benchmark.json"), buildBenchmark(input));
  return written;
}
