/**
 * contrast (seed domain 03, UI/UX): every foreground/background pair meets WCAG 2.2 AA — 4.5 for text, 3 for
 * large text and UI components (AAA with `level: "AAA"`: 7 / 4.5 / 3). Pairs come from an export `pairs`
 * (an array, or a function returning one); a `.css` or `.html` module is checked on the cascade as Chromium
 * computes it (`page.ts` generates the page a stylesheet applies to, `chromium.ts` observes it confined,
 * `cascade.ts` judges every element with text). Translucent colours are composited; nothing is rounded.
 * `pairsFromCss` is the former per-rule pairing, kept for the reference test that shows what it missed.
 */
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import postcss from "postcss";
import { decodeValue, type Tagged } from "../../src/sandbox/tagged.js";
import { ObservationError, schemaProblem, schemaValidator } from "../judging.js";
import { OUTCOME_SCHEMA } from "../shared/calls.js";
import { enumOption } from "../shared/options.js";
import { describe } from "../shared/runtime.js";
import type { GateCheck, GateJudge, GateOutput, JudgeContext } from "../types.js";
import { cacheKey, judgeCascade, LARGE_BOLD_PX, LARGE_PX, THRESHOLDS } from "./cascade.js";
import { observeCascade, writePage } from "./chromium.js";
import { contrastRatio, parseColor } from "./colors.js";
import { CASCADE_OBSERVATION_SCHEMA, type CascadeObservation, type PageSpec } from "./observation.js";
import { pageFromCss } from "./page.js";

type Kind = "text" | "large-text" | "ui";
interface Pair {
  fg: string;
  bg: string;
  kind?: Kind;
  name?: string;
  /** `file:line:column` for pairs read from CSS. */
  where?: string;
}

const KINDS: readonly Kind[] = ["text", "large-text", "ui"];

function fontPx(value: string): number | undefined {
  const m = /^([\d.]+)(px|pt|rem|em)$/i.exec(value.trim());
  if (!m?.[1] || !m[2]) return undefined;
  const n = Number.parseFloat(m[1]);
  const unit = m[2].toLowerCase();
  return unit === "px" ? n : unit === "pt" ? (n * 4) / 3 : n * 16; // rem/em against the 16px default
}

/** First token of a `background` shorthand that parses as a colour. */
function backgroundColor(value: string): string | undefined {
  const tokens = value.match(/(?:[a-z-]+\([^)]*\)|#[0-9a-f]+|[^\s,]+)/gi) ?? [];
  return tokens.find((t) => parseColor(t) !== undefined) ?? (tokens.length === 1 ? tokens[0] : undefined);
}

/** The former per-rule pairing (both `color` and a background in one rule): misses the cascade. */
export function pairsFromCss(css: string, file: string): Pair[] {
  const root = postcss.parse(css, { from: file });
  const pairs: Pair[] = [];
  root.walkRules((rule) => {
    let fg: string | undefined;
    let bg: string | undefined;
    let size: number | undefined;
    let bold = false;
    rule.each((node) => {
      if (node.type !== "decl") return;
      const prop = node.prop.toLowerCase();
      if (prop === "color") fg = node.value;
      else if (prop === "background-color") bg = node.value;
      else if (prop === "background") bg = backgroundColor(node.value) ?? node.value;
      else if (prop === "font-size") size = fontPx(node.value);
      else if (prop === "font-weight") bold = /^(bold|bolder|[7-9]00)$/i.test(node.value.trim());
    });
    if (fg === undefined || bg === undefined) return;
    const large = size !== undefined && (size >= LARGE_PX || (bold && size >= LARGE_BOLD_PX));
    const start = rule.source?.start;
    pairs.push({
      fg,
      bg,
      kind: large ? "large-text" : "text",
      name: rule.selector,
      where: `${file}:${start?.line ?? 1}:${start?.column ?? 1}`,
    });
  });
  return pairs;
}

const CONTRAST_OBSERVATION_SCHEMA = OUTCOME_SCHEMA;

function pairsFromExport(obs: { threw: string } | { value: Tagged }): Pair[] | string {
  if ("threw" in obs) return obs.threw;
  const v = decodeValue(obs.value);
  if (!Array.isArray(v)) return `expected an array of {fg, bg, kind?, name?}, got ${typeof v}`;
  return v as Pair[];
}

export function checkPair(p: Pair, i: number, level: "AA" | "AAA"): GateCheck {
  const label = typeof p?.name === "string" ? p.name : `#${i}`;
  const id = `pair:${label}`;
  const at = p?.where ? `${p.where}: ` : "";
  if (p === null || typeof p !== "object" || typeof p.fg !== "string" || typeof p.bg !== "string")
    return { id, passed: false, message: `${at}pair ${label} needs string fg and bg` };
  const kind = p.kind ?? "text";
  if (!KINDS.includes(kind))
    return { id, passed: false, message: `${at}pair ${label}: unknown kind '${String(kind)}'` };
  const fg = parseColor(p.fg);
  const bg = parseColor(p.bg);
  const unknown = [fg ? undefined : p.fg, bg ? undefined : p.bg].filter((x) => x !== undefined);
  if (!fg || !bg)
    return {
      id,
      passed: false,
      message: `${at}unknown colour ${unknown.map((c) => `'${c}'`).join(" and ")} in ${label}`,
    };
  const ratio = contrastRatio(fg, bg);
  const need = THRESHOLDS[level][kind];
  const passed = ratio >= need;
  return {
    id,
    passed,
    message: `${at}${p.fg} on ${p.bg} (${kind}): ${ratio.toFixed(3)}:1 ${passed ? "≥" : "<"} ${need}:1 (WCAG 2.2 ${level}, unrounded ${ratio})`,
  };
}

export const contrast: GateJudge = {
  id: "contrast",
  observationSchema: CONTRAST_OBSERVATION_SCHEMA,
  async judge(session, ctx): Promise<GateOutput> {
    const level = enumOption(ctx.options, "level", ["AA", "AAA"] as const, "AA");
    if (/\.(?:css|html?)$/i.test(ctx.modulePath)) return judgePage(ctx, level);
    let pairs: Pair[];
    {
      const [obs] = await session.observe([{ kind: "pairs" }]);
      const got = pairsFromExport(obs as { threw: string } | { value: Tagged });
      if (typeof got === "string") return { checks: [{ id: "pairs", passed: false, message: got }] };
      pairs = got;
    }
    if (pairs.length === 0)
      return {
        checks: [
          {
            id: "pairs",
            passed: false,
            message: "no colour pair to check",
          },
        ],
      };
    const checks = pairs.map((p, i) => checkPair(p, i, level));
    // Two pairs with the same name get distinct check ids.
    const seen = new Map<string, number>();
    for (const c of checks) {
      const n = (seen.get(c.id) ?? 0) + 1;
      seen.set(c.id, n);
      if (n > 1) c.id = `${c.id}#${n}`;
    }
    return { checks, metrics: { level, pairs: pairs.length } };
  },
};

const validateCascade = schemaValidator(CASCADE_OBSERVATION_SCHEMA);
/** One browser run per module text in this process: the verdict does not depend on the seed. */
const observed = new Map<string, Promise<CascadeObservation>>();

function cssProblem(ctx: JudgeContext, err: unknown): GateOutput {
  const e = err as { line?: number; column?: number; reason?: string };
  return {
    checks: [
      {
        id: "parse",
        passed: false,
        message: `${ctx.modulePath}:${e.line ?? 1}:${e.column ?? 1}: CSS does not parse: ${e.reason ?? describe(err)}`,
      },
    ],
  };
}

/** A `.css` module (on the page it implies) or an `.html` page, judged on Chromium's computed cascade. */
async function judgePage(ctx: JudgeContext, level: "AA" | "AAA"): Promise<GateOutput> {
  const css = /\.css$/i.test(ctx.modulePath);
  let spec: PageSpec;
  let notReached: string[] = [];
  if (css) {
    let page: ReturnType<typeof pageFromCss>;
    try {
      page = pageFromCss(ctx.sourceText, ctx.modulePath, pathToFileURL(ctx.modulePath).href);
    } catch (err) {
      return cssProblem(ctx, err);
    }
    notReached = page.notReached.map((n) => `${n.where}: ${n.selector}: ${n.why}`);
    const file = writePage(page.html);
    spec = {
      file,
      readable: [dirname(file), dirname(ctx.modulePath)],
      generated: true,
      sourceText: ctx.sourceText,
      modulePath: ctx.modulePath,
    };
  } else {
    spec = {
      file: ctx.modulePath,
      readable: [dirname(ctx.modulePath)],
      generated: false,
      sourceText: ctx.sourceText,
      modulePath: ctx.modulePath,
    };
  }
  const key = cacheKey(ctx.modulePath, ctx.sourceText);
  let pending = observed.get(key);
  if (!pending) {
    pending = observeCascade(spec, ctx.limits ?? {});
    observed.set(key, pending);
  }
  const obs = await pending;
  // A failed run (killed, no browser) is not kept: the next call, maybe with other limits, tries again.
  if ("error" in obs && observed.get(key) === pending) observed.delete(key);
  if (!validateCascade(obs))
    throw new ObservationError(`the browser's observation is malformed: ${schemaProblem(validateCascade)}`);
  return judgeCascade(obs, { level, modulePath: ctx.modulePath, notReached });
}
