import type { SkillReport } from "../model/report.js";
import { measured } from "./markdown-text.js";

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
