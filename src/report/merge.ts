import { sumLevels } from "../grade/levels.js";
import type { AgentCell } from "../model/agent.js";
import { InputError } from "../model/diagnostics.js";
import type { IsolationLevel, IsolationReport, Report, Root, Verdict } from "../model/report.js";
import { DEFAULT_VERDICT_POLICY } from "../settings/defaults.js";
import { verdictDisagreements } from "../verdict/recompute.js";
import { type CellReport, matrixSummary, trustedIdentity } from "./matrix.js";

/**
 * Combines the JSON reports of a sharded sweep (or of separate jobs) into one Report for one check run and one
 * summary. Fail-closed: a missing shard, a skill reported twice or reports of different commits make the merged
 * verdict `error` with a message that says which. Each report's verdict is recomputed from its per-trial records
 * under the verdict policy it names (the default one when it names none), as the action's report mode does under
 * the base's: a report whose records and verdict disagree is refused. Reports of agent-matrix cells (`report.cell`)
 * are merged per cell first (a cell's shards), then across cells: a skill appears once per cell, the verdict is the
 * worst of the required cells', and `matrix` holds the cell × skill table with the effects and interactions. Pure.
 */

export interface LoadedReport {
  /** Where it came from, for messages. */
  source: string;
  report: Report;
}

const SEVERITY: Record<Verdict, number> = { pass: 0, fail: 1, error: 2 };

function worst(a: Verdict, b: Verdict): Verdict {
  return SEVERITY[a] >= SEVERITY[b] ? a : b;
}

function rootOrder(a: Root, b: Root): number {
  return (
    Number(b.blocking) - Number(a.blocking) ||
    a.skill.localeCompare(b.skill) ||
    (a.cell ?? "").localeCompare(b.cell ?? "") ||
    a.file.localeCompare(b.file) ||
    a.line - b.line
  );
}

export interface MergeOptions {
  /** The matrix's cells as the trusted (base) config defines them: each required one must have a report. */
  cells?: AgentCell[];
}

export function mergeReports(loaded: LoadedReport[], opts: MergeOptions = {}): Report {
  if (loaded.length === 0) throw new InputError("merge: no reports given");
  if (opts.cells?.length || loaded.some((l) => l.report.cell)) return mergeCells(loaded, opts.cells);
  return mergeFlat(loaded);
}

/** Cells of a matrix: each cell's reports (its shards) merged, then the cells side by side. */
function mergeCells(loaded: LoadedReport[], trusted: AgentCell[] | undefined): Report {
  const errors: string[] = [];
  const groups = new Map<string, LoadedReport[]>();
  for (const l of loaded) {
    const name = l.report.cell?.name;
    if (!name) {
      errors.push(`${l.source} is not the report of a cell of the agents: matrix (it names no cell)`);
      continue;
    }
    if (trusted && !trusted.some((c) => c.name === name))
      errors.push(`${l.source} is of cell ${name}, which the base config's agents: matrix does not define`);
    groups.set(name, [...(groups.get(name) ?? []), l]);
  }
  const names = [...new Set([...(trusted ?? []).map((c) => c.name), ...groups.keys()])];
  const cells: CellReport[] = [];
  const perCell: LoadedReport[] = [];
  for (const name of names) {
    const group = groups.get(name);
    const cell = trusted?.find((c) => c.name === name);
    if (!group) {
      if (cell?.required) errors.push(`no report of the required cell ${name}: it was not evaluated`);
      if (cell) cells.push({ cell: { ...trustedIdentity(cell), reason: "no report of this cell" } });
      continue;
    }
    const report =
      group.length === 1 ? group[0]!.report : { ...mergeFlat(group), cell: group[0]!.report.cell };
    report.cell = cell ? trustedIdentity(cell, report) : report.cell!;
    cells.push({ cell: report.cell, report });
    perCell.push({ source: group.map((g) => g.source).join(", "), report });
  }
  const required = (name: string | undefined) =>
    cells.find((c) => c.cell.name === name)?.cell.required ?? true;
  const out = perCell.length
    ? mergeFlat(perCell, required)
    : mergeFlat(loaded.slice(0, 1).map((l) => ({ ...l, report: { ...l.report, skills: [] } })));
  delete out.cell;
  out.errors.push(...errors);
  if (errors.length) out.verdict = "error";
  out.agent = {
    adapter: "matrix",
    identity: cells.map((c) => `${c.cell.name}=${c.cell.identity}`).join(", "),
  };
  out.matrix = matrixSummary(cells, out.seed);
  return out;
}

/**
 * Reports side by side (shards of one run, or the cells of a matrix). `required(cell)`: whether a cell's verdict
 * and blocking roots count; a cell that is not required is reported, never blocking.
 */
function mergeFlat(
  loaded: LoadedReport[],
  required: (cell: string | undefined) => boolean = () => true,
): Report {
  const errors = mergeProblems(loaded);
  const first = loaded[0]!.report;
  const reports = loaded.map((l) => l.report);
  const counted = loaded.filter((l) => required(l.report.cell?.name));
  const verdict = errors.length
    ? "error"
    : counted.map((l) => l.report.verdict).reduce(worst, "pass" as Verdict);
  const starts = reports.map((r) => r.startedAt).sort();
  const figures = summedFigures(reports);
  return {
    schemaVersion: 2,
    tool: first.tool,
    verdict,
    seed: first.seed,
    startedAt: starts[0] ?? first.startedAt,
    durationMs: Math.max(...reports.map((r) => r.durationMs)),
    // What the PR waited for: the rounds of the part that took longest.
    ...roundsOfLongest(reports),
    ...changesOf(reports),
    repo: first.repo,
    head: first.head,
    base: first.base,
    agent: first.agent,
    trials: Math.max(...reports.map((r) => r.trials)),
    skills: reports
      .flatMap((r) => r.skills)
      .sort((a, b) => a.name.localeCompare(b.name) || (a.cell ?? "").localeCompare(b.cell ?? "")),
    // Shards of one run share the policy; its repository roots are reported once.
    policy: {
      ...first.policy,
      roots: [...new Map(reports.flatMap((r) => r.policy?.roots ?? []).map((r) => [r.id, r])).values()],
    },
    // A cell that is not required is reported in its skills, never annotated as blocking.
    blockingRoots: uniqueRoots(counted.flatMap((l) => l.report.blockingRoots)),
    newRoots: uniqueRoots(reports.flatMap((r) => r.newRoots)),
    diagnostics: uniqueDiagnostics(reports.flatMap((r) => r.diagnostics)),
    stats: figures.stats,
    ...levelsOfShards(reports),
    cost: figures.cost,
    errors: [
      ...loaded.flatMap((l) => l.report.errors.map((e) => (loaded.length > 1 ? `${l.source}: ${e}` : e))),
      ...errors,
    ],
    ...(first.pullRequest !== undefined ? { pullRequest: first.pullRequest } : {}),
    ...weakestIsolation(reports.map((r) => r.isolation)),
  };
}

/** Why the reports cannot be merged: different heads, missing or doubled shards, a verdict that does not follow from its records, a skill in two reports. */
function mergeProblems(loaded: LoadedReport[]): string[] {
  const errors: string[] = [];
  const heads = new Set(loaded.map((l) => l.report.head.sha ?? ""));
  if (heads.size > 1)
    errors.push(
      `reports are of different head commits: ${loaded.map((l) => `${l.source} → ${l.report.head.sha ?? "?"}`).join(", ")}`,
    );
  // Shards: every i of n present exactly once per cell (non-sharded reports are merged as they are).
  for (const cell of new Set(loaded.map((l) => l.report.cell?.name)))
    errors.push(...shardProblems(loaded.filter((l) => l.report.cell?.name === cell)));
  for (const l of loaded) {
    const policy = { ...DEFAULT_VERDICT_POLICY, ...(l.report.policy?.verdict ?? {}) };
    const disagreements = verdictDisagreements(l.report, policy);
    if (disagreements.length)
      errors.push(
        `${l.source} is refused: its verdict does not follow from its records under the policy it names: ${disagreements.slice(0, 5).join("; ")}${disagreements.length > 5 ? ` (+${disagreements.length - 5} more)` : ""}`,
      );
  }
  const skillSource = new Map<string, string>();
  for (const l of loaded) {
    for (const s of l.report.skills) {
      const key = `${s.cell ?? ""}\0${s.name}`;
      const prev = skillSource.get(key);
      if (prev)
        errors.push(
          `skill ${s.name}${s.cell ? ` of cell ${s.cell}` : ""} is in two reports: ${prev} and ${l.source}`,
        );
      else skillSource.set(key, l.source);
    }
  }
  return errors;
}

/** Roots once each (by cell, skill and id; the last report's wins), in report order. */
function uniqueRoots(roots: Root[]): Root[] {
  const rootKey = (r: Root) => `${r.cell ?? ""}\0${r.skill}\0${r.id}`;
  return [...new Map(roots.map((r) => [rootKey(r), r])).values()].sort(rootOrder);
}

/** Diagnostics once each (by place, code and message), the first kept. */
function uniqueDiagnostics(diagnostics: Report["diagnostics"]): Report["diagnostics"] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const k = `${d.file}:${d.line}:${d.column}:${d.code}:${d.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Counts summed over the reports; per-trial means weighted by each report's trials. */
function summedFigures(reports: Report[]): Pick<Report, "stats" | "cost"> {
  const sum = (f: (r: Report) => number) => reports.reduce((t, r) => t + f(r), 0);
  const trialsOf = (r: Report) => r.cost.agentCalls + r.cost.cacheHits;
  const allTrials = sum(trialsOf);
  const weighted = (f: (r: Report) => number) =>
    allTrials > 0 ? sum((r) => f(r) * trialsOf(r)) / allTrials : sum(f) / reports.length;
  return {
    stats: {
      failedChecks: sum((r) => r.stats.failedChecks),
      roots: sum((r) => r.stats.roots),
      meanFailedChecksPerTrial: weighted((r) => r.stats.meanFailedChecksPerTrial),
      meanRootsPerTrial: weighted((r) => r.stats.meanRootsPerTrial),
    },
    cost: {
      usd: sum((r) => r.cost.usd),
      unpricedCalls: sum((r) => r.cost.unpricedCalls ?? 0),
      agentCalls: sum((r) => r.cost.agentCalls),
      cacheHits: sum((r) => r.cost.cacheHits),
      inputTokens: sum((r) => r.cost.inputTokens),
      outputTokens: sum((r) => r.cost.outputTokens),
    },
  };
}

/** Every shard i of n present exactly once among `loaded` (reports of one cell, or of a run without cells). */
function shardProblems(loaded: LoadedReport[]): string[] {
  const errors: string[] = [];
  const sharded = loaded.filter((l) => l.report.shard);
  if (sharded.length === 0) return errors;
  const of = loaded[0]?.report.cell ? ` of cell ${loaded[0].report.cell.name}` : "";
  const totals = new Set(sharded.map((l) => l.report.shard!.total));
  if (totals.size > 1) errors.push(`shard totals${of} differ: ${[...totals].join(", ")}`);
  const total = Math.max(...totals);
  const seen = new Map<number, string>();
  for (const l of sharded) {
    const i = l.report.shard!.index;
    if (seen.has(i)) errors.push(`shard ${i}/${total}${of} appears twice: ${seen.get(i)} and ${l.source}`);
    seen.set(i, l.source);
  }
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length)
    errors.push(
      `missing shard report${missing.length > 1 ? "s" : ""}${of}: ${missing.map((i) => `${i}/${total}`).join(", ")} — their skills were not evaluated`,
    );
  return errors;
}

/** The PR's levels decomposition: the shards' counts added up (they hold different skills). */
function levelsOfShards(reports: Report[]): Pick<Report, "levels"> {
  const levels = sumLevels(reports.flatMap((r) => r.levels ?? []));
  return levels.length ? { levels } : {};
}

const ISOLATION_STRENGTH: Record<IsolationLevel, number> = { "uid+namespaces": 2, namespaces: 1, none: 0 };

/** The shards' isolation is the weakest any of them ran at (a shard that did not say counts as none). */
function weakestIsolation(all: (IsolationReport | undefined)[]): { isolation?: IsolationReport } {
  const known = all.filter((i): i is IsolationReport => i !== undefined);
  if (known.length === 0) return {};
  if (known.length < all.length)
    return {
      isolation: {
        level: "none",
        reason: "a shard's report does not say how it was isolated",
        required: known[0]!.required,
      },
    };
  return {
    isolation: known.reduce((a, b) => (ISOLATION_STRENGTH[b.level] < ISOLATION_STRENGTH[a.level] ? b : a)),
  };
}

/** The rounds of agent calls of the part that took longest (parts run side by side: that is the wait). */
function roundsOfLongest(reports: Report[]): Pick<Report, "rounds"> {
  const longest = [...reports].sort((a, b) => b.durationMs - a.durationMs).find((r) => r.rounds?.length);
  return longest?.rounds ? { rounds: longest.rounds } : {};
}

/** The PR's changed files of every part, once each (cells of a matrix see the same files). */
function changesOf(reports: Report[]): Pick<Report, "changes"> {
  const byFile = new Map<string, NonNullable<Report["changes"]>[number]>();
  for (const r of reports) for (const c of r.changes ?? []) if (!byFile.has(c.file)) byFile.set(c.file, c);
  return byFile.size ? { changes: [...byFile.values()] } : {};
}
