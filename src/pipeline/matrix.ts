/**
 * An agent matrix (`agents:` in the base config) runs the whole pipeline once per cell, each cell with its own
 * agent, identity, trial cache and cost, its share of the PR's α and budget (src/settings/matrix.ts), and combines
 * the cells' reports with the code `skillgate merge` uses. A run told to evaluate one cell (a job of a workflow
 * matrix) returns that cell's report; the merge job combines the cells.
 */
import { join } from "node:path";
import { headSha } from "../detect/base.js";
import type { AgentCell, CellIdentity, Report, Settings } from "../model/index.js";
import { type LoadedReport, mergeReports } from "../report/merge.js";
import { cellAlpha, cellBudget, labelSkip } from "../settings/matrix.js";
import { VERSION } from "../version.js";

/** The settings of one cell's run: its agent, its share of α and budget, its own cache and output folders. */
function cellSettings(settings: Settings, cell: AgentCell): Settings {
  const cells = settings.matrix!.cells;
  return {
    ...settings,
    cell: cell.name,
    agent: cell.agent,
    verdict: { ...settings.verdict, alpha: cellAlpha(settings.verdict.alpha, cells) },
    budget: cellBudget(settings.budget, cells),
    // Keys already hold the adapter's identity; a folder per cell also keeps apart cells that differ only in
    // options the identity does not name (a base URL, a sandbox setting).
    cache: { ...settings.cache, dir: join(settings.cache.dir, "cells", cell.name) },
    outputs: {
      ...settings.outputs,
      ...(settings.outputs.exports ? { exports: join(settings.outputs.exports, cell.name) } : {}),
    },
    ...(settings.record ? { record: join(settings.record, cell.name) } : {}),
  };
}

/** Marks a cell's report, its skills and roots with the cell, so merged reports keep them apart. */
export function tagCell(report: Report, cell: CellIdentity): Report {
  report.cell = cell;
  for (const s of report.skills) {
    s.cell = cell.name;
    for (const r of [...s.roots, ...s.blockingRoots, ...s.newRoots]) r.cell = cell.name;
  }
  for (const r of [...report.blockingRoots, ...report.newRoots]) r.cell = cell.name;
  return report;
}

/** The report of a cell this PR does not evaluate (its label is absent): nothing ran, nothing to block. */
function notEvaluated(settings: Settings, cell: AgentCell): Report {
  return {
    schemaVersion: 2,
    tool: { name: "skillgate", version: VERSION },
    verdict: "pass",
    seed: settings.seed,
    startedAt: new Date().toISOString(),
    durationMs: 0,
    repo: settings.repoDir,
    head: { sha: headSha(settings.repoDir) },
    agent: { adapter: cell.agent.adapter, identity: cell.agent.adapter },
    trials: settings.trials,
    skills: [],
    policy: { origin: settings.policy.origin, roots: [] },
    blockingRoots: [],
    newRoots: [],
    diagnostics: [],
    stats: { failedChecks: 0, roots: 0, meanFailedChecksPerTrial: 0, meanRootsPerTrial: 0 },
    cost: { usd: 0, agentCalls: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0 },
    errors: [],
  };
}

/**
 * Runs `runOne` (the pipeline, with whatever cache plumbing the entry point adds) once per selected cell. Without
 * a matrix it is `runOne(settings)`.
 */
export async function runCells(
  settings: Settings,
  runOne: (s: Settings) => Promise<Report>,
): Promise<Report> {
  const matrix = settings.matrix;
  if (!matrix) return runOne(settings);
  const log = settings.logger;
  const loaded: LoadedReport[] = [];
  for (const name of matrix.selected) {
    const cell = matrix.cells.find((c) => c.name === name)!;
    const skipped = labelSkip(cell, matrix.labels);
    log.info(
      `cell ${name} (${cell.agent.adapter}${cell.agent.model ? ` ${cell.agent.model}` : ""}): ${skipped ?? "evaluating"}`,
    );
    const report = skipped
      ? notEvaluated(settings, cell)
      : await log.group(`cell ${name}`, () => runOne(cellSettings(settings, cell)));
    tagCell(report, {
      name,
      adapter: cell.agent.adapter,
      identity: report.agent.identity,
      required: cell.required,
      selected: !skipped,
      ...(skipped ? { reason: skipped } : {}),
    });
    loaded.push({ source: `cell ${name}`, report });
  }
  if (matrix.single) return loaded[0]!.report;
  const selected = matrix.cells.filter((c) => matrix.selected.includes(c.name));
  return mergeReports(loaded, { cells: selected });
}
