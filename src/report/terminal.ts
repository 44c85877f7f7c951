import type { Report, Root, SkillReport } from "../model/index.js";
import { skillsFact, timeFact, trialsFact } from "./facts.js";
import { levelLines } from "./levels.js";
import { matrixTerminal } from "./matrix-render.js";
import { type PrintedRate, rateCounts, rateMeasured } from "./rate-text.js";
import { robustnessTerminal } from "./robustness-render.js";

export interface TerminalOptions {
  color: boolean;
  /** Show passing skills' details too. */
  verbose?: boolean;
}

/** Roots listed per skill before "… N more" (the JSON report always has all). */
const MAX_ROOTS_SHOWN = 15;

const ICON = { pass: "PASS", fail: "FAIL", error: "ERROR" } as const;

/** The human summary the CLI prints: verdict first, then per skill the figures and the roots with locations. */
export function renderTerminal(report: Report, opts: TerminalOptions): string {
  const c = colors(opts.color);
  const out: string[] = [];
  const verdictColor = report.verdict === "pass" ? c.green : report.verdict === "fail" ? c.red : c.yellow;
  out.push(
    `${verdictColor(c.bold(`skillgate: ${ICON[report.verdict]}`))}  ${skillsFact(report)}, ${report.blockingRoots.length} blocking root(s) (${report.newRoots.length} new)` +
      `  [agent ${report.agent.adapter}, ${trialsFact(report)}, seed ${report.seed}]`,
  );
  if (report.scope) out.push(`  ${report.scope.message}`);
  if (report.base)
    out.push(
      c.dim(
        `  base: ${report.base.ref ?? report.base.dir ?? report.base.sha ?? "?"}${report.base.tip && report.base.sha ? ` (merge base ${report.base.sha.slice(0, 12)}; the base ref is now at ${report.base.tip.slice(0, 12)})` : ""}`,
      ),
    );
  out.push(
    c.dim(
      `  policy: ${report.policy.origin}${report.policy.override ? `; override: ${report.policy.override.by}` : ""}`,
    ),
  );
  const iso = report.isolation;
  const limits = iso?.resources ? `; limits: ${iso.resources.level}` : "";
  if (iso && iso.level === iso.required) out.push(c.dim(`  isolation: ${iso.level}${limits}`));
  else if (iso)
    out.push(
      c.yellow(
        c.bold(
          `  WARNING isolation: ${iso.level}, weaker than ${iso.required}${iso.weakerAccepted === "config" ? " (accepted by the config's isolation.allowWeaker)" : ""}: ${iso.reason}${limits}`,
        ),
      ),
    );
  for (const r of report.policy.roots) out.push(...renderRoot(r, r.blocking ? c.red : c.dim, c));
  for (const e of report.errors) out.push(c.yellow(`  error: ${e}`));
  if (report.matrix)
    out.push("", ...matrixTerminal(report.matrix).map((l) => (l.includes("FLAGGED") ? c.yellow(l) : l)));
  for (const s of report.skills) out.push("", ...renderSkill(s, c, opts));
  const errs = report.diagnostics.filter((d) => d.severity === "error");
  if (errs.length) {
    out.push("", c.bold("Validation errors"));
    for (const d of errs) out.push(`  ${d.file}:${d.line}:${d.column}: ${d.message}`);
  }
  // Pooled over the skills: with one skill they are its own lines again.
  if (report.levels?.length && report.skills.length > 1)
    out.push("", ...levelLines(report.levels).map((l) => c.dim(`levels, all skills, ${l}`)));
  out.push(
    "",
    c.dim(
      `failed checks ${report.stats.failedChecks} → roots ${report.stats.roots}` +
        ` (per trial: ${report.stats.meanFailedChecksPerTrial.toFixed(2)} failed checks → ${report.stats.meanRootsPerTrial.toFixed(2)} roots)` +
        `; agent calls ${report.cost.agentCalls}, cache hits ${report.cost.cacheHits}, cost $${report.cost.usd.toFixed(4)}${report.cost.unpricedCalls ? ` + unknown (${report.cost.unpricedCalls} call(s) of unknown price)` : ""}` +
        `; ${timeFact(report)}`,
    ),
  );
  return `${out.join("\n")}\n`;
}

function renderSkill(s: SkillReport, c: Colors, opts: TerminalOptions): string[] {
  const out: string[] = [];
  const vc = s.verdict === "pass" ? c.green : s.verdict === "fail" ? c.red : c.yellow;
  out.push(
    `${vc(ICON[s.verdict].padEnd(5))} ${c.bold(s.cell ? `${s.name} (cell ${s.cell})` : s.name)} ${c.dim(`(${s.change}, ${s.path})`)}`,
  );
  const d = s.discriminator;
  if (d) {
    const bd = s.base?.discriminator;
    out.push(
      `      discriminator pass rate  skill ${rate(d.skill.discriminatorPassRate)}  baseline ${rate(d.baseline.discriminatorPassRate)}  lift ${signed(d.discriminatorLift)}` +
        (bd
          ? c.dim(
              `  (base: skill ${rate(bd.skill.discriminatorPassRate)}, lift ${signed(bd.discriminatorLift)})`,
            )
          : ""),
    );
    out.push(
      `      overall pass rate        skill ${rate(d.skill.passRate)}  baseline ${rate(d.baseline.passRate)}  lift ${signed(d.lift)}`,
    );
    if (d.styleGuideNotGuardrail)
      out.push(c.yellow("      style guide, not a guardrail: overall lift without discriminator lift"));
  }
  for (const l of levelLines(s.levels ?? [])) out.push(`      levels, ${l}`);
  const t = s.trigger;
  if (t) {
    const bt = s.base?.trigger;
    out.push(
      `      trigger${t.proxy ? ` (${t.router} proxy)` : ""}  precision ${rate(t.precision, NEVER_FIRED)}  recall ${rate(t.recall)}  F1 ${t.f1.toFixed(2)}` +
        (bt
          ? c.dim(
              `  (base: precision ${bt.precision.measured ? pct(bt.precision.rate) : NEVER_FIRED}, recall ${pct(bt.recall.rate)})`,
            )
          : ""),
    );
    for (const w of t.warnings) out.push(c.yellow(`      ${w}`));
  }
  if (s.robustness && (opts.verbose || s.robustness.dimensions.some((d) => d.measured && d.selected)))
    out.push(...robustnessTerminal(s.robustness));
  const failedGates = new Map<string, number>();
  for (const g of s.gates.filter((g) => !g.passed)) {
    const k = `gate ${g.gate} failed on ${g.module} (${g.caseId}/${g.assertionId})`;
    failedGates.set(k, (failedGates.get(k) ?? 0) + 1);
  }
  for (const [k, n] of [...failedGates].slice(0, 5)) out.push(`      ${k}${n > 1 ? ` in ${n} trials` : ""}`);
  const blocking = s.roots.filter((r) => r.blocking);
  const other = s.roots.filter((r) => !r.blocking);
  const shown = opts.verbose ? Number.POSITIVE_INFINITY : MAX_ROOTS_SHOWN;
  for (const r of blocking.slice(0, shown)) out.push(...renderRoot(r, c.red, c));
  if (blocking.length > shown)
    out.push(
      c.red(
        `      … ${blocking.length - shown} more blocking root(s) (--verbose or the JSON report lists all)`,
      ),
    );
  if (opts.verbose || s.verdict !== "pass") {
    for (const r of other.slice(0, shown)) out.push(...renderRoot(r, c.dim, c));
    if (other.length > shown) out.push(c.dim(`      … ${other.length - shown} more root(s)`));
  }
  for (const reason of s.reasons.slice(0, 6)) out.push(c.dim(`      · ${reason}`));
  return out;
}

function renderRoot(r: Root, tint: (s: string) => string, c: Colors): string[] {
  const counts = r.action
    ? ` seen in ${r.action.trials.length} head trial(s)`
    : r.head && r.base
      ? ` head ${r.head.failed}/${r.head.trials} failed, base ${r.base.failed}/${r.base.trials}${r.pValue !== undefined ? `, p=${r.pValue.toPrecision(2)}` : ""}`
      : r.head
        ? ` head ${r.head.failed}/${r.head.trials} failed`
        : "";
  const lines = [
    tint(`      ${r.status.toUpperCase()} ${r.kind} ${r.id}`) + c.dim(`  ${r.file}:${r.line}${counts}`),
    `        ${r.message.split("\n").join("\n        ")}`,
  ];
  const cascaded = r.cascaded.length
    ? `cascaded (${r.cascaded.length}): ${r.cascaded.slice(0, 6).join(", ")}${r.cascaded.length > 6 ? ", …" : ""}`
    : undefined;
  const facts = [r.level ? `level ${r.level}` : undefined, cascaded].filter(Boolean);
  if (facts.length) lines.push(c.dim(`        ${facts.join("; ")}`));
  return lines;
}

/** Precision of a skill that fired on no prompt: nothing to measure (its stored rate, 1, is vacuous). */
const NEVER_FIRED = "n/a (never fired)";

/** A rate with its interval and counts; `empty` when nothing was counted (no rate to give). */
function rate(r: PrintedRate, empty = "n/a (none measured)"): string {
  if (!rateMeasured(r)) return empty;
  return `${pct(r.rate)} [${pct(r.low)}–${pct(r.high)}] (${rateCounts(r)})`;
}

function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}

function signed(x: number): string {
  return `${x >= 0 ? "+" : ""}${(x * 100).toFixed(0)} pts`;
}

type Colors = ReturnType<typeof colors>;

function colors(on: boolean) {
  const wrap = (code: number) => (s: string) => (on ? `\u001b[${code}m${s}\u001b[0m` : s);
  return { red: wrap(31), green: wrap(32), yellow: wrap(33), dim: wrap(2), bold: wrap(1) };
}
