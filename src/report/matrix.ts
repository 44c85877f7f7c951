/**
 * The agent matrix of a merged report: one row per cell (verdict, roots, cost), one entry per cell × skill (the
 * key figures and the PR's effect), and per skill the interaction between every two cells, flagged when the
 * change helps one cell and hurts the other (src/verdict/interaction.ts). Pure.
 */
import type {
  AgentCell,
  CellIdentity,
  CellInteraction,
  MatrixCell,
  MatrixEntry,
  MatrixSummary,
  Report,
  SkillReport,
} from "../model/index.js";
import {
  BOOTSTRAP_LEVEL,
  BOOTSTRAP_RESAMPLES,
  BOOTSTRAP_UNIT,
  type EffectEstimate,
  estimateEffect,
  estimateInteraction,
} from "../verdict/interaction.js";

/** A cell's report, with what the trusted config says of the cell when it is known. */
export interface CellReport {
  cell: CellIdentity;
  report?: Report;
}

const pts = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(x * 100).toFixed(1)} pts`;

function entryOf(cell: string, s: SkillReport, effect?: EffectEstimate): MatrixEntry {
  const d = s.discriminator?.skill.discriminatorPassRate;
  const bd = s.base?.discriminator?.skill.discriminatorPassRate;
  return {
    cell,
    skill: s.name,
    verdict: s.verdict,
    change: s.change,
    ...(d?.measured ? { discriminatorPassRate: { head: d.rate, ...(bd ? { base: bd.rate } : {}) } } : {}),
    ...(s.trigger
      ? { triggerF1: { head: s.trigger.f1, ...(s.base?.trigger ? { base: s.base.trigger.f1 } : {}) } }
      : {}),
    newRoots: s.newRoots.length,
    blockingRoots: s.blockingRoots.length,
    ...(effect ? { effect: effect.effect } : {}),
  };
}

function interactionOf(
  skill: string,
  a: string,
  b: string,
  ea: EffectEstimate,
  eb: EffectEstimate,
): CellInteraction {
  const i = estimateInteraction(ea, eb);
  const [x, y] = [ea.effect.effect, eb.effect.effect];
  const opposite = (x > 0 && y < 0) || (x < 0 && y > 0);
  const flagged = i.excludesZero && opposite;
  const range = `[${pts(i.low)}, ${pts(i.high)}]`;
  const message = flagged
    ? `the change ${x > 0 ? "helps" : "hurts"} ${a} (${pts(x)}) and ${y > 0 ? "helps" : "hurts"} ${b} (${pts(y)}): interaction ${pts(i.difference)} ${range}`
    : i.excludesZero
      ? `the change moves ${a} (${pts(x)}) and ${b} (${pts(y)}) by different amounts: interaction ${pts(i.difference)} ${range}`
      : `no interaction shown: ${pts(i.difference)} ${range} includes zero`;
  return { skill, a, b, ...i, flagged, message };
}

export function matrixSummary(cells: CellReport[], seed: number): MatrixSummary {
  const rows: MatrixCell[] = cells.map(({ cell, report }) => ({
    ...cell,
    ...(report ? { verdict: report.verdict } : {}),
    blockingRoots: report?.blockingRoots.length ?? 0,
    newRoots: report?.newRoots.length ?? 0,
    cost: {
      usd: report?.cost.usd ?? 0,
      agentCalls: report?.cost.agentCalls ?? 0,
      cacheHits: report?.cost.cacheHits ?? 0,
    },
    errors: report
      ? report.errors
      : [cell.selected ? "no report of this cell" : (cell.reason ?? "not evaluated")],
  }));
  const entries: MatrixEntry[] = [];
  const effects = new Map<string, Map<string, EffectEstimate>>(); // skill → cell → estimate
  for (const { cell, report } of cells) {
    for (const s of report?.skills ?? []) {
      const ev = s.evidence;
      const est = ev?.base ? estimateEffect(ev.head, ev.base, `${seed}|${cell.name}|${s.name}`) : undefined;
      if (est) {
        const per = effects.get(s.name) ?? new Map<string, EffectEstimate>();
        per.set(cell.name, est);
        effects.set(s.name, per);
      }
      entries.push(entryOf(cell.name, s, est));
    }
  }
  const interactions: CellInteraction[] = [];
  for (const [skill, per] of [...effects].sort(([a], [b]) => a.localeCompare(b))) {
    const names = cells.map((c) => c.cell.name).filter((n) => per.has(n));
    for (let i = 0; i < names.length; i++)
      for (let j = i + 1; j < names.length; j++)
        interactions.push(
          interactionOf(skill, names[i]!, names[j]!, per.get(names[i]!)!, per.get(names[j]!)!),
        );
  }
  return {
    cells: rows,
    entries: entries.sort((a, b) => a.skill.localeCompare(b.skill) || cellOrder(cells, a.cell, b.cell)),
    interactions,
    bootstrap: { resamples: BOOTSTRAP_RESAMPLES, seed, level: BOOTSTRAP_LEVEL, unit: BOOTSTRAP_UNIT },
  };
}

function cellOrder(cells: CellReport[], a: string, b: string): number {
  return cells.findIndex((c) => c.cell.name === a) - cells.findIndex((c) => c.cell.name === b);
}

/** A trusted cell (from the base config) as a report names it; the report's own claims fill in the identity. */
export function trustedIdentity(cell: AgentCell, report?: Report): CellIdentity {
  return {
    name: cell.name,
    adapter: cell.agent.adapter,
    identity: report?.agent.identity ?? cell.agent.adapter,
    required: cell.required,
    selected: report?.cell?.selected ?? true,
    ...(report?.cell?.reason ? { reason: report.cell.reason } : {}),
  };
}
