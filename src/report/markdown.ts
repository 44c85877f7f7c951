import type { Forecast, Report, Root, SkillReport, Verdict } from "../model/report.js";
import { headline, timeFact, trialsFact } from "./facts.js";
import { type Figure, mermaidChart, skillFigures } from "./figures.js";
import { levelTable } from "./levels.js";
import { escapeText, NEVER_FIRED, pct, rate, safeUrl, signedPct } from "./markdown-text.js";
import { matrixMarkdown } from "./matrix-render.js";
import { robustnessMarkdown } from "./robustness-render.js";

/**
 * Markdown for the job summary, the check run summary and the sticky PR comment. Pure: Report → string.
 * Everything that comes from a skill, a suite or an agent is passed through `escapeText`, so no output can
 * inject HTML, Markdown links/images, tables, math, bare links or @-mentions. Sizes are bounded by `maxChars`: blocks are
 * added most important first and the rest is replaced by a pointer to the full report.
 */

export interface MarkdownOptions {
  /** Hard cap in UTF-16 code units (≥ what GitHub counts). */
  maxChars: number;
  /** Where the full report lives, said when the output is truncated (e.g. a run URL or artifact name). */
  fullReportHint: string;
  /** Hidden first line (the sticky comment marker). */
  marker?: string;
  /** Include the per-skill mermaid charts (the job summary renders them; check run summaries do not). */
  charts?: boolean;
  /** Check name shown in the heading. */
  title?: string;
  /** Where the HTML review report is (an https URL skillgate composed, e.g. the run's artifact), linked under the heading. */
  reviewReportUrl?: string;
}

const VERDICT_ICON: Record<Verdict, string> = { pass: "✅", fail: "❌", error: "⚠️" };

function rootWhere(r: Root): string {
  return `\`${escapeText(r.file, 200).replace(/`/g, "")}:${r.line}\``;
}

function rootRow(r: Root): string {
  const counts = [
    r.head ? `head ${r.head.failed}/${r.head.trials} failed` : undefined,
    r.base ? `base ${r.base.failed}/${r.base.trials} failed` : undefined,
    r.pValue !== undefined ? `p = ${r.pValue.toPrecision(2)}` : undefined,
  ]
    .filter(Boolean)
    .join(", ");
  return `| ${escapeText(r.cell ? `${r.skill} (cell ${r.cell})` : r.skill, 150)} | ${rootWhere(r)} | ${escapeText(r.title, 120)} | ${escapeText(r.message)} | ${escapeText(counts || "–")} |`;
}

const ROOT_TABLE_HEAD = "| skill | where | root | expected / seen | trials |\n|---|---|---|---|---|";

/** Accumulates blocks under a size cap; the first block that does not fit ends the document. */
class BoundedDoc {
  private readonly parts: string[] = [];
  private size = 0;
  truncated = 0;
  constructor(private readonly limit: number) {}
  add(block: string): boolean {
    if (this.truncated > 0) {
      this.truncated++;
      return false;
    }
    const cost = block.length + 1;
    if (this.size + cost > this.limit) {
      this.truncated = 1;
      return false;
    }
    this.parts.push(block);
    this.size += cost;
    return true;
  }
  text(): string {
    return this.parts.join("\n");
  }
}

export function renderMarkdown(report: Report, options: MarkdownOptions): string {
  const footerRoom = 400 + options.fullReportHint.length;
  const doc = new BoundedDoc(Math.max(0, options.maxChars - footerRoom));
  header(doc, report, options);
  warnings(doc, report);
  if (report.forecast) forecastTable(doc, report.forecast);
  if (report.matrix) for (const b of matrixMarkdown(report.matrix, escapeText)) doc.add(b);
  skillsTable(doc, report);
  if (report.levels?.length) {
    doc.add(
      `\n### Outcome, final state, process\n\nRuns of every evaluated skill's cases at head; failed checks ${report.stats.failedChecks} → roots ${report.stats.roots}.\n`,
    );
    doc.add(levelTable(report.levels));
  }
  if (report.blockingRoots.length > 0) rootsTable(doc, "Blocking root failures", report.blockingRoots);
  const policyNotes = report.policy.roots.filter((r) => !r.blocking);
  if (policyNotes.length) rootsTable(doc, "Policy changes (not blocking)", policyNotes);
  for (const s of report.skills) {
    // A skill's blocks go in whole or end the document.
    if (!skillBlocks(s, options).every((b) => doc.add(b))) break;
  }
  for (const d of report.diagnostics.slice(0, 50)) {
    if (
      !doc.add(
        `- ${d.severity}: \`${escapeText(`${d.file}:${d.line}:${d.column}`, 200).replace(/`/g, "")}\` ${escapeText(d.message, 500)}`,
      )
    )
      break;
  }
  let text = doc.text();
  if (doc.truncated > 0) {
    text += `\n\n> [!NOTE]\n> This summary was cut to fit GitHub's size limit (${options.maxChars.toLocaleString("en-US")} characters). The full report: ${options.fullReportHint}\n`;
  }
  return text.length > options.maxChars ? text.slice(0, options.maxChars) : text;
}

/** The heading, the review report's link and the run's facts on one line. */
function header(doc: BoundedDoc, report: Report, options: MarkdownOptions): void {
  if (options.marker) doc.add(options.marker);
  const title = escapeText(options.title ?? "skillgate", 80);
  const icon = report.onDemand ? "⏸️" : VERDICT_ICON[report.verdict];
  doc.add(`## ${icon} ${title}: ${escapeText(headline(report), 400)}`);
  if (report.onDemand) doc.add(`\n${escapeText(report.onDemand.message, 1000)}`);
  const link = safeUrl(options.reviewReportUrl);
  if (link)
    doc.add(
      `\n📄 **[Review report](${link})**: the roots with their transcripts (failing head trial beside passing base trial), every check head vs base, every trial.`,
    );
  doc.add("");
  doc.add(runFacts(report).join(" · "));
}

/** Head, base, agent, trials, seed, policy, isolation, cost, time, shard. */
function runFacts(report: Report): string[] {
  return [
    `head \`${escapeText(report.head.sha?.slice(0, 12) ?? report.head.ref ?? "working tree", 40)}\``,
    report.base
      ? `base \`${escapeText(report.base.sha?.slice(0, 12) ?? report.base.ref ?? report.base.dir ?? "?", 40)}\``
      : "no base (sweep)",
    `agent ${escapeText(report.agent.identity || report.agent.adapter, 80)}`,
    trialsFact(report),
    `seed ${report.seed}`,
    `policy: ${escapeText(report.policy.origin, 200)}`,
    report.isolation
      ? `isolation \`${report.isolation.level}\`${report.isolation.resources ? `, limits \`${report.isolation.resources.level}\`` : ""}`
      : undefined,
    `cost $${report.cost.usd.toFixed(2)}${report.cost.unpricedCalls ? ` + unknown (${report.cost.unpricedCalls} call(s) of unknown price)` : ""} (${report.cost.agentCalls} agent calls, ${report.cost.cacheHits} cached)`,
    timeFact(report),
    report.shard ? `shard ${report.shard.index}/${report.shard.total}` : undefined,
  ].filter((f): f is string => Boolean(f));
}

/** The scope, a weaker isolation than required, the run's errors. */
function warnings(doc: BoundedDoc, report: Report): void {
  if (report.scope) doc.add(`\n${escapeText(report.scope.message, 300)}`);
  const iso = report.isolation;
  if (iso && iso.level !== iso.required)
    doc.add(
      `\n> [!WARNING]\n> Untrusted code ran at isolation \`${iso.level}\`, weaker than \`${iso.required}\`${iso.weakerAccepted === "config" ? " (accepted by the base's `isolation.allowWeaker`)" : ""}: ${escapeText(iso.reason, 500)}`,
    );
  for (const e of report.errors) doc.add(`\n> [!CAUTION]\n> ${escapeText(e, 1000)}`);
}

/** One row per skill (and cell): verdict, discriminator figures, trigger precision / recall, roots, cost. */
function skillsTable(doc: BoundedDoc, report: Report): void {
  doc.add("\n### Skills\n");
  doc.add(
    "| skill | change | verdict | discriminator pass rate | discriminator lift | trigger P / R | roots (blocking) | cost |",
  );
  doc.add("|---|---|---|---|---|---|---|---|");
  for (const s of report.skills) {
    const precision =
      s.trigger && !s.trigger.precision.measured ? NEVER_FIRED : pct(s.trigger?.precision.rate);
    const trig = s.trigger ? `${precision} / ${pct(s.trigger.recall.rate)}` : "–";
    doc.add(
      `| ${escapeText(s.cell ? `${s.name} (cell ${s.cell})` : s.name, 150)} | ${escapeText(s.change, 20)} | ${VERDICT_ICON[s.verdict]} ${s.verdict} | ${pct(s.discriminator?.skill.discriminatorPassRate.rate)} | ${signedPct(s.discriminator?.discriminatorLift)} | ${trig} | ${s.roots.length} (${s.blockingRoots.length}) | $${s.cost.usd.toFixed(2)} |`,
    );
  }
}

/** A heading and a table of roots, as many rows as fit. */
function rootsTable(doc: BoundedDoc, heading: string, roots: readonly Root[]): void {
  doc.add(`\n### ${heading}\n`);
  doc.add(ROOT_TABLE_HEAD);
  for (const r of roots) if (!doc.add(rootRow(r))) break;
}

/** A skill's section: path and reasons, figures head vs base, robustness, levels, gates, its other roots. */
function skillBlocks(s: SkillReport, options: MarkdownOptions): string[] {
  const blocks: string[] = [
    `\n### ${VERDICT_ICON[s.verdict]} ${escapeText(s.cell ? `${s.name} (cell ${s.cell})` : s.name, 150)} — ${escapeText(s.change, 20)}\n`,
  ];
  blocks.push(
    `\`${escapeText(s.path, 200).replace(/`/g, "")}\`${s.version ? ` · version ${escapeText(s.version, 40)}` : ""}`,
  );
  if (s.reasons.length) blocks.push(s.reasons.map((r) => `- ${escapeText(r, 500)}`).join("\n"));
  blocks.push(...figureBlocks(s, options));
  if (s.robustness) blocks.push(...robustnessMarkdown(s.name, s.robustness, escapeText));
  if (s.levels?.length) blocks.push(`\n${levelTable(s.levels)}`);
  if (s.gates.length) blocks.push(gateTable(s));
  // Blocking roots are in the table above; here the reported ones (pre-existing, flakes, tightenings …).
  const others = s.roots.filter((r) => !r.blocking);
  if (others.length) {
    blocks.push(`\nOther roots (${others.length}):\n`);
    blocks.push(ROOT_TABLE_HEAD);
    for (const r of others) blocks.push(rootRow(r));
  }
  return blocks;
}

/** The figures head vs base as a table, the discriminator's rates, and the chart when asked for. */
function figureBlocks(s: SkillReport, options: MarkdownOptions): string[] {
  const figures = skillFigures(s);
  if (!figures.length) return [];
  const fmt = (f: Figure, x: number | undefined) => (f.kind === "rate" ? pct(x) : signedPct(x));
  const blocks = [
    [
      "\n| figure | base | head |",
      "|---|---|---|",
      ...figures.map((f) => `| ${f.label} | ${fmt(f, f.base)} | ${fmt(f, f.head)} |`),
    ].join("\n"),
  ];
  if (s.discriminator)
    blocks.push(
      `\nwith skill: ${rate(s.discriminator.skill.discriminatorPassRate)}; baseline: ${rate(s.discriminator.baseline.discriminatorPassRate)}`,
    );
  if (options.charts) {
    const chart = mermaidChart(s.name, figures);
    if (chart) blocks.push(`\n${chart}`);
  }
  return blocks;
}

/** The skill's gate outcomes. One gate runs once per trial: identical outcomes are one row with a count. */
function gateTable(s: SkillReport): string {
  const rows = new Map<string, { row: string; count: number }>();
  for (const g of s.gates) {
    const result = g.passed
      ? "✅ pass"
      : `❌ ${escapeText(g.checks.find((c) => !c.passed)?.message ?? "fail")}`;
    const row = `| ${escapeText(g.gate, 40)} | ${escapeText(`${g.caseId}/${g.assertionId}`, 120)} | ${escapeText(g.module, 120)} | ${result}`;
    const seen = rows.get(row);
    if (seen) seen.count++;
    else rows.set(row, { row, count: 1 });
  }
  return [
    "\n| gate | case | module | result | trials |",
    "|---|---|---|---|---|",
    ...[...rows.values()].map((r) => `${r.row} | ${r.count} |`),
  ].join("\n");
}

/** The forecast said before the run: per skill and battery, trials, expected cache hits, calls and USD. */
function forecastTable(doc: BoundedDoc, f: Forecast): void {
  const usd = (x: number | undefined) => (x === undefined ? "?" : `$${x.toFixed(2)}`);
  doc.add(
    `\n### Forecast\n\n${escapeText(f.costBasis, 300)}; confirmation adds up to ${f.confirmation.maxTrialsPerArmPerSuspect} head trial(s) and ${f.confirmation.maxTrialsPerArmPerSuspect * (f.confirmation.baseTrialsPerHeadTrial ?? 1)} base trial(s) for each suspect. Budget (${escapeText(f.budget.source, 200)}): ${f.budget.maxAgentCalls ?? "unlimited"} agent calls, ${f.budget.maxUsd === undefined ? "unlimited USD" : `$${f.budget.maxUsd}`}.\n`,
  );
  doc.add(
    "| skill | battery | trials | cache hits | agent calls | est. USD |\n|---|---|---:|---:|---:|---:|",
  );
  for (const l of f.lines)
    doc.add(
      `| ${escapeText(l.skill, 80)} | ${l.battery} | ${l.trials} | ${l.cacheHits} | ${l.agentCalls} | ${usd(l.usd)} |`,
    );
  doc.add(
    `| **total** | | ${f.total.trials} | ${f.total.cacheHits} | ${f.total.agentCalls} | ${usd(f.total.usd)} |`,
  );
  if (f.overBudget) doc.add(`\n> [!CAUTION]\n> over budget: ${escapeText(f.overBudget, 600)}`);
}
