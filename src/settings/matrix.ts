/**
 * The agent matrix of the trusted config (`agents:`): which cells exist, which this run evaluates, and what each
 * cell's share of the PR's error rate and budget is. Pure: the runner (src/pipeline/matrix.ts) and the report
 * job's recomputation (src/verdict/recompute.ts) read the same figures from here.
 */
import { type AgentCell, type AgentCellConfig, type Budget, UsageError } from "../model/index.js";
import type { MatrixSettings } from "../model/settings.js";

/** The cells of `agents:` as the run uses them (a cell is required unless it says `required: false`). */
export function matrixCells(config: AgentCellConfig[]): AgentCell[] {
  return config.map(({ name, required, label, ...agent }) => ({
    name,
    agent,
    required: required !== false,
    ...(label ? { label } : {}),
  }));
}

/**
 * The matrix a run evaluates: every cell, or those `--cell` / the `cell` input names (comma separated). A name
 * the config does not define is a usage error, never an empty (and so passing) selection.
 */
export function resolveMatrix(config: AgentCellConfig[], requested: string | undefined): MatrixSettings {
  const cells = matrixCells(config);
  if (!requested) return { cells, selected: cells.map((c) => c.name) };
  const names = [...new Set(requested.split(",").map((s) => s.trim()))].filter(Boolean);
  const unknown = names.filter((n) => !cells.some((c) => c.name === n));
  if (unknown.length || names.length === 0)
    throw new UsageError(
      `--cell ${requested}: ${unknown.length ? `no cell named ${unknown.join(", ")}` : "no cell named"}; the config's agents are ${cells.map((c) => c.name).join(", ")}`,
    );
  return {
    cells,
    selected: cells.filter((c) => names.includes(c.name)).map((c) => c.name),
    single: names.length === 1,
  };
}

/**
 * Each cell's share of the PR's family-wise α: a PR fails when any required cell has a new root, so with k
 * required cells each decides at α/k (Bonferroni) and an unchanged skill fails the PR at most α of the time.
 */
export function cellAlpha(alpha: number, cells: readonly AgentCell[]): number {
  return alpha / Math.max(1, cells.filter((c) => c.required).length);
}

/** Each cell's share of the PR's budget: the cells together spend at most what the base config allows. */
export function cellBudget(budget: Budget, cells: readonly AgentCell[]): Budget {
  const n = Math.max(1, cells.length);
  return {
    ...(budget.maxUsd !== undefined ? { maxUsd: budget.maxUsd / n } : {}),
    ...(budget.maxTokens !== undefined ? { maxTokens: Math.floor(budget.maxTokens / n) } : {}),
    ...(budget.maxAgentCalls !== undefined ? { maxAgentCalls: Math.floor(budget.maxAgentCalls / n) } : {}),
  };
}

/** Why a label-gated cell is not evaluated in this PR, or undefined when it is. `labels` undefined: not a PR. */
export function labelSkip(cell: AgentCell, labels: readonly string[] | undefined): string | undefined {
  if (!cell.label || !labels || labels.includes(cell.label)) return undefined;
  return `not evaluated: the pull request does not carry the label "${cell.label}"`;
}
