import type { Forecast, Report, Root, SkillReport, Verdict } from "../model/report.js";
import { humanDuration } from "../run/progress.js";
import { levelTable } from "./levels.js";
import { matrixMarkdown } from "./matrix-render.js";
import { type PrintedRate, rateCounts, rateMeasured } from "./rate-text.js";
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

/** Longest rendering of one untrusted value in a table cell. */
const MAX_CELL_CHARS = 300;

const VERDICT_ICON: Record<Verdict, string> = { pass: "✅", fail: "❌", error: "⚠️" };

/** An invisible character that ends a word: what GitHub's autolinker and mention filter need is no longer there. */
const WORD_JOINER = "\u2060";

/**
 * Breaks what GitHub turns into a link or a notification in text it renders: `scheme://` and `www.` addresses,
 * e-mail addresses and `@user` / `@org/team` mentions, `#123` references. Its linkers read the text after
 * entities are decoded, so escaping `@` as `&#64;` is not enough; a word joiner after `@`, `:`, `www` and `#`
 * leaves the text as it reads and links nothing.
 */
export function breakLinks(s: string): string {
  return s
    .replace(/@/g, `@${WORD_JOINER}`)
    .replace(/:(?=\/\/)/g, `:${WORD_JOINER}`)
    .replace(/\b(www)(?=\.)/gi, `$1${WORD_JOINER}`)
    .replace(/#(?=\d)/g, `#${WORD_JOINER}`);
}

/**
 * Neutralises untrusted text for Markdown + HTML: every character that could start markup becomes a numeric
 * entity (GitHub renders it literally), links and mentions are broken (`breakLinks`), newlines become spaces, and
 * length is capped.
 */
export function escapeText(value: unknown, max = MAX_CELL_CHARS): string {
  let s = String(value ?? "");
  if (s.length > max) s = `${s.slice(0, max - 1)}…`;
  return breakLinks(s.replace(/[\r\n\t]+/g, " ")).replace(
    /[&<>"'`|[\]*_~#!\\$@]/g,
    (c) => `&#${c.charCodeAt(0)};`,
  );
}

function pct(x: number | undefined): string {
  return x === undefined || !Number.isFinite(x) ? "–" : `${(x * 100).toFixed(1)} %`;
}

/** Precision of a skill that fired on no prompt: nothing to measure (its stored rate, 1, is vacuous). */
const NEVER_FIRED = "n/a (never fired)";

/** A measured rate, or undefined when nothing was counted (precision with no firing). */
function measured(r: PrintedRate | undefined): number | undefined {
  return rateMeasured(r) ? r.rate : undefined;
}

function rate(r: PrintedRate | undefined): string {
  if (!r) return "–";
  if (!rateMeasured(r)) return "n/a (none measured)";
  return `${pct(r.rate)} (${rateCounts(r)}, 95 % CI ${pct(r.low)}–${pct(r.high)})`;
}

function signedPct(x: number | undefined): string {
  if (x === undefined || !Number.isFinite(x)) return "–";
  return `${x >= 0 ? "+" : "−"}${(Math.abs(x) * 100).toFixed(1)} pp`;
}

/** An https URL safe inside a Markdown link target (no spaces, quotes, brackets or parentheses), else undefined. */
function safeUrl(url: string | undefined): string | undefined {
  if (!url || !/^https:\/\/[^\s"'<>()[\]`\\]+$/.test(url)) return undefined;
  return url;
}

/** The figures compared head vs base, in chart order. Values are fractions (lift: −1..1). */
export interface Figure {
  label: string;
  head?: number;
  base?: number;
  kind: "rate" | "delta";
}

export function skillFigures(s: SkillReport): Figure[] {
  const all: Figure[] = [
    {
      label: "discriminator pass rate",
      head: s.discriminator?.skill.discriminatorPassRate.rate,
      base: s.base?.discriminator?.skill.discriminatorPassRate.rate,
      kind: "rate",
    },
    {
      label: "baseline discriminator pass rate",
      head: s.discriminator?.baseline.discriminatorPassRate.rate,
      base: s.base?.discriminator?.baseline.discriminatorPassRate.rate,
      kind: "rate",
    },
    {
      label: "discriminator lift",
      head: s.discriminator?.discriminatorLift,
      base: s.base?.discriminator?.discriminatorLift,
      kind: "delta",
    },
    { label: "lift", head: s.discriminator?.lift, base: s.base?.discriminator?.lift, kind: "delta" },
    {
      label: "trigger precision",
      head: measured(s.trigger?.precision),
      base: measured(s.base?.trigger?.precision),
      kind: "rate",
    },
    {
      label: "trigger recall",
      head: s.trigger?.recall.rate,
      base: s.base?.trigger?.recall.rate,
      kind: "rate",
    },
    { label: "trigger F1", head: s.trigger?.f1, base: s.base?.trigger?.f1, kind: "rate" },
  ];
  return all.filter((f) => f.head !== undefined || f.base !== undefined);
}

/** A mermaid xychart of base (line) vs head (bars), in percent. Labels are ours; numbers are numbers. */
export function mermaidChart(skillName: string, figures: Figure[]): string | undefined {
  const shown = figures.filter((f) => f.head !== undefined && Number.isFinite(f.head));
  if (shown.length === 0) return undefined;
  const num = (x: number | undefined) =>
    x === undefined || !Number.isFinite(x) ? 0 : Math.round(x * 1000) / 10;
  const min = Math.min(0, ...shown.flatMap((f) => [num(f.head), num(f.base)]));
  const safeName = skillName.replace(/[^A-Za-z0-9 ._-]/g, "").slice(0, 64);
  const lines = [
    "```mermaid",
    "xychart-beta",
    `  title "${safeName}: head (bars) vs base (line), %"`,
    `  x-axis [${shown.map((f) => `"${f.label}"`).join(", ")}]`,
    `  y-axis "percent" ${min < 0 ? -100 : 0} --> 100`,
    `  bar [${shown.map((f) => num(f.head)).join(", ")}]`,
  ];
  if (shown.some((f) => f.base !== undefined))
    lines.push(`  line [${shown.map((f) => num(f.base)).join(", ")}]`);
  lines.push("```");
  return lines.join("\n");
}

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

/** "3 trials per case", or what `--trials` or each suite's meta.json set. */
export function trialsFact(report: Report): string {
  const per = new Set(report.skills.map((s) => s.trials?.perCase).filter((n) => n !== undefined));
  if (report.trialsOverride !== undefined) return `${report.trialsOverride} trial(s) per case (--trials)`;
  if (per.size > 1) return `${[...per].sort((a, b) => a - b).join("/")} trials per case (per suite)`;
  const n = [...per][0] ?? report.trials;
  return `${n} trial${n === 1 ? "" : "s"} per case`;
}

/** Headline used as the check run title and the summary's first line. */
export function headline(report: Report): string {
  if (report.onDemand) return report.onDemand.message.slice(0, 200);
  const skills = new Set(report.skills.map((s) => s.name)).size;
  const what = `${skills} skill${skills === 1 ? "" : "s"}`;
  if (report.verdict === "error")
    return `error: ${report.errors[0] ?? report.blockingRoots[0]?.title ?? "the evaluation did not complete"}`.slice(
      0,
      200,
    );
  if (report.verdict === "pass")
    return skills === 0
      ? `pass: ${report.scope?.message ?? "no skill to evaluate"}`
      : `pass: ${what} evaluated, no blocking root`;
  const blocking = report.blockingRoots.length;
  const fresh = report.newRoots.filter((r) => r.blocking).length;
  return `fail: ${blocking} blocking root${blocking === 1 ? "" : "s"} (${fresh} new) in ${what}`;
}

export function renderMarkdown(report: Report, options: MarkdownOptions): string {
  const footerRoom = 400 + options.fullReportHint.length;
  const doc = new BoundedDoc(Math.max(0, options.maxChars - footerRoom));
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
  const facts = [
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
  ].filter(Boolean);
  doc.add(facts.join(" · "));
  if (report.scope) doc.add(`\n${escapeText(report.scope.message, 300)}`);
  const iso = report.isolation;
  if (iso && iso.level !== iso.required)
    doc.add(
      `\n> [!WARNING]\n> Untrusted code ran at isolation \`${iso.level}\`, weaker than \`${iso.required}\`${iso.weakerAccepted === "config" ? " (accepted by the base's `isolation.allowWeaker`)" : ""}: ${escapeText(iso.reason, 500)}`,
    );
  for (const e of report.errors) doc.add(`\n> [!CAUTION]\n> ${escapeText(e, 1000)}`);
  if (report.forecast) forecastTable(doc, report.forecast);
  if (report.matrix) for (const b of matrixMarkdown(report.matrix, escapeText)) doc.add(b);

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

  if (report.levels?.length) {
    doc.add(
      `\n### Outcome, final state, process\n\nRuns of every evaluated skill's cases at head; failed checks ${report.stats.failedChecks} → roots ${report.stats.roots}.\n`,
    );
    doc.add(levelTable(report.levels));
  }

  if (report.blockingRoots.length > 0) {
    doc.add("\n### Blocking root failures\n");
    doc.add(ROOT_TABLE_HEAD);
    for (const r of report.blockingRoots) if (!doc.add(rootRow(r))) break;
  }

  const policyNotes = report.policy.roots.filter((r) => !r.blocking);
  if (policyNotes.length) {
    doc.add("\n### Policy changes (not blocking)\n");
    doc.add(ROOT_TABLE_HEAD);
    for (const r of policyNotes) if (!doc.add(rootRow(r))) break;
  }

  for (const s of report.skills) {
    const blocks: string[] = [
      `\n### ${VERDICT_ICON[s.verdict]} ${escapeText(s.cell ? `${s.name} (cell ${s.cell})` : s.name, 150)} — ${escapeText(s.change, 20)}\n`,
    ];
    blocks.push(
      `\`${escapeText(s.path, 200).replace(/`/g, "")}\`${s.version ? ` · version ${escapeText(s.version, 40)}` : ""}`,
    );
    if (s.reasons.length) blocks.push(s.reasons.map((r) => `- ${escapeText(r, 500)}`).join("\n"));
    const figures = skillFigures(s);
    if (figures.length) {
      const fmt = (f: Figure, x: number | undefined) => (f.kind === "rate" ? pct(x) : signedPct(x));
      blocks.push(
        [
          "\n| figure | base | head |",
          "|---|---|---|",
          ...figures.map((f) => `| ${f.label} | ${fmt(f, f.base)} | ${fmt(f, f.head)} |`),
        ].join("\n"),
      );
      if (s.discriminator)
        blocks.push(
          `\nwith skill: ${rate(s.discriminator.skill.discriminatorPassRate)}; baseline: ${rate(s.discriminator.baseline.discriminatorPassRate)}`,
        );
      if (options.charts) {
        const chart = mermaidChart(s.name, figures);
        if (chart) blocks.push(`\n${chart}`);
      }
    }
    if (s.robustness) blocks.push(...robustnessMarkdown(s.name, s.robustness, escapeText));
    if (s.levels?.length) blocks.push(`\n${levelTable(s.levels)}`);
    if (s.gates.length) {
      // One gate runs once per trial: identical outcomes are one row with a count.
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
      blocks.push(
        [
          "\n| gate | case | module | result | trials |",
          "|---|---|---|---|---|",
          ...[...rows.values()].map((r) => `${r.row} | ${r.count} |`),
        ].join("\n"),
      );
    }
    // Blocking roots are in the table above; here the reported ones (pre-existing, flakes, tightenings …).
    const others = s.roots.filter((r) => !r.blocking);
    if (others.length) {
      blocks.push(`\nOther roots (${others.length}):\n`);
      blocks.push(ROOT_TABLE_HEAD);
      for (const r of others) blocks.push(rootRow(r));
    }
    let stopped = false;
    for (const b of blocks) {
      if (!doc.add(b)) {
        stopped = true;
        break;
      }
    }
    if (stopped) break;
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

/** The forecast said before the run: per skill and battery, trials, expected cache hits, calls and USD. */
function forecastTable(doc: { add(block: string): unknown }, f: Forecast): void {
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

/**
 * "1 skill(s)", or "1 skill(s) in 2 cell(s)" with an agent matrix, whose report holds a skill once per cell.
 */
export function skillsFact(report: Pick<Report, "skills">): string {
  const names = new Set(report.skills.map((s) => s.name)).size;
  const cells = new Set(report.skills.flatMap((s) => (s.cell ? [s.cell] : []))).size;
  return `${names} skill(s)${cells > 1 ? ` in ${cells} cell(s)` : ""}`;
}

/**
 * The rounds of agent calls a PR waited for: the first batch, and each confirmation look once (the units' batches
 * of one look run side by side; a report from before per-unit looks has one batch per round).
 */
export function roundsWaited(report: Pick<Report, "rounds">): { first: number; confirmations: number } {
  const batches = report.rounds ?? [];
  const first = batches.some((r) => r.label === "first batch") ? 1 : 0;
  const looks = batches.filter((r) => r.label !== "first batch").map((r, i) => r.look ?? `#${i}`);
  return { first, confirmations: new Set(looks).size };
}

/** "took 3 min over 3 rounds of agent calls (first batch, 2 confirmation rounds)": how long the PR waited. */
export function timeFact(
  report: Pick<Report, "durationMs" | "rounds"> & { cost?: Pick<Report["cost"], "agentCalls"> },
): string {
  const { first, confirmations } = roundsWaited(report);
  const rounds = first + confirmations;
  const calls = report.cost?.agentCalls ?? 0;
  const how =
    rounds === 0
      ? calls > 0
        ? `${calls} agent call(s)`
        : "no agent calls"
      : `${rounds} round(s) of agent calls (${first ? "first batch" : ""}${confirmations ? `${first ? ", " : ""}${confirmations} confirmation round(s)` : ""})`;
  return `took ${humanDuration(report.durationMs)} over ${how}`;
}
