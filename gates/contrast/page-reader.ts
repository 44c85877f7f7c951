/**
 * contrast, reading a loaded page over DevTools (gates/contrast/chromium.ts launches and navigates): every element
 * with text of its own, its computed colour and font, and for it and each ancestor the computed background,
 * opacity, display and visibility, plus where (file:line:column) the winning `color`, background and `opacity`
 * declarations come from (`CSS.getMatchedStylesForNode`). Styles come from the `DOM` and `CSS` domains, never
 * from the page's own script (which is off).
 */
import { fileURLToPath } from "node:url";
import type { PipeCdp } from "./cdp.js";
import {
  type CascadeLayer,
  type CascadeObservation,
  FORCEABLE_STATES,
  LABEL_ATTR,
  MAX_TEXT_ELEMENTS,
  MAX_TEXT_SNIPPET,
  type PageSpec,
  RULE_ATTR,
  STATE_ATTR,
  type TextElement,
} from "./observation.js";

type Send = (m: string, p?: Record<string, unknown>) => Promise<unknown>;
/** A stylesheet's header (`CSS.styleSheetAdded`): where its rules' lines are counted from. */
export type Sheet = { sourceURL: string; startLine: number; startColumn: number; isInline: boolean };

type Node = {
  nodeId: number;
  nodeType: number;
  nodeName: string;
  nodeValue?: string;
  attributes?: string[];
  children?: Node[];
  shadowRoots?: Node[];
};
type Prop = { name: string; value: string; important?: boolean; disabled?: boolean; parsedOk?: boolean };
type Style = { cssProperties?: Prop[]; cssText?: string; range?: unknown };
type Rule = {
  styleSheetId?: string;
  origin: string;
  selectorList?: { selectors?: { range?: { startLine: number; startColumn: number } }[] };
  style: Style;
};
type Level = { inlineStyle?: Style; matchedCSSRules?: { rule: Rule }[] };
type Matched = Level & { inherited?: Level[] };
/** How long a rule's stylesheet header may lag behind the rule (CSS.styleSheetAdded is an event of its own). */
const SHEET_EVENT_WAIT_MS = 5_000;
const SKIP = new Set(["HEAD", "SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "TITLE"]);
const BACKGROUND = ["background-color", "background", "background-image"];

function attr(n: Node, name: string): string | undefined {
  const a = n.attributes ?? [];
  for (let i = 0; i + 1 < a.length; i += 2) if (a[i] === name) return a[i + 1];
  return undefined;
}

function shortLabel(n: Node): string {
  const tag = n.nodeName.toLowerCase();
  const id = attr(n, "id");
  const cls = (attr(n, "class") ?? "").trim().split(/\s+/).filter(Boolean).slice(0, 3);
  return `${tag}${id ? `#${id}` : ""}${cls.map((c) => `.${c}`).join("")}`.slice(0, 200);
}

/** Computed styles and matched rules of the page's nodes, each asked for once (until a forced state changes them). */
class Styles {
  private readonly computed = new Map<number, Map<string, string>>();
  private readonly matchedOf = new Map<number, Matched>();

  constructor(
    private readonly send: Send,
    private readonly page: PageSpec,
    private readonly sheets: Map<string, Sheet>,
  ) {}

  async style(n: Node): Promise<Map<string, string>> {
    let s = this.computed.get(n.nodeId);
    if (!s) {
      const r = (await this.send("CSS.getComputedStyleForNode", { nodeId: n.nodeId })) as {
        computedStyle: { name: string; value: string }[];
      };
      s = new Map(r.computedStyle.map((p) => [p.name, p.value]));
      this.computed.set(n.nodeId, s);
    }
    return s;
  }

  /** Drops what a forced pseudo-state on `node` may change: its matched rules, and the chain's computed styles. */
  forget(node: Node, chain: Node[]): void {
    for (const a of chain) this.computed.delete(a.nodeId);
    this.matchedOf.delete(node.nodeId);
  }

  /** Where the winning declaration of one of `props` comes from, own or (`inherits`) inherited; null: nowhere. */
  async sourceOf(n: Node, props: string[], inherits: boolean): Promise<string | null> {
    const m = await this.matched(n);
    const own = this.winner(m, props);
    if (own !== undefined || !inherits) return own ?? null;
    for (const level of m.inherited ?? []) {
      const w = this.winner(level, props);
      if (w !== undefined) return w;
    }
    return null;
  }

  private async matched(n: Node): Promise<Matched> {
    let m = this.matchedOf.get(n.nodeId);
    if (!m) {
      m = (await this.send("CSS.getMatchedStylesForNode", { nodeId: n.nodeId })) as Matched;
      // A sheet's `styleSheetAdded` event may come after the rules that cite it: wait for it (bounded), or the
      // rule's file:line would be missing for this run only.
      const cited = [m, ...(m.inherited ?? [])].flatMap((level) =>
        (level.matchedCSSRules ?? [])
          .map(({ rule }) => (rule.origin === "regular" ? rule.styleSheetId : undefined))
          .filter((id): id is string => typeof id === "string"),
      );
      for (const until = Date.now() + SHEET_EVENT_WAIT_MS; cited.some((id) => !this.sheets.has(id)); ) {
        if (Date.now() >= until) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      this.matchedOf.set(n.nodeId, m);
    }
    return m;
  }

  /** Where the winning declaration of one of `props` comes from in one level; undefined: not declared there. */
  private winner(level: Level, props: string[]): string | null | undefined {
    const has = (s: Style | undefined, important: boolean) =>
      (s?.cssProperties ?? []).some(
        (p) =>
          props.includes(p.name) && !p.disabled && p.parsedOk !== false && Boolean(p.important) === important,
      );
    const rules = level.matchedCSSRules ?? [];
    for (const important of [true, false]) {
      if (has(level.inlineStyle, important)) return this.locateInline(level.inlineStyle as Style);
      for (let i = rules.length - 1; i >= 0; i--) {
        const rule = (rules[i] as { rule: Rule }).rule;
        if (!has(rule.style, important)) continue;
        return rule.origin === "regular" ? this.locate(rule) : null;
      }
    }
    return undefined;
  }

  private locate(rule: Rule): string | null {
    const sheet = rule.styleSheetId ? this.sheets.get(rule.styleSheetId) : undefined;
    const r = rule.selectorList?.selectors?.[0]?.range;
    if (!sheet || !r) return null;
    const line = sheet.isInline ? sheet.startLine + r.startLine : r.startLine;
    const column = sheet.isInline && r.startLine === 0 ? sheet.startColumn + r.startColumn : r.startColumn;
    let file = sheet.sourceURL;
    try {
      if (file.startsWith("file:")) file = fileURLToPath(file);
    } catch {
      // keep the URL
    }
    return `${file}:${line + 1}:${column + 1}`;
  }

  private locateInline(s: Style): string {
    const text = (s.cssText ?? "").trim();
    const at = text ? this.page.sourceText.indexOf(text) : -1;
    if (at < 0) return `${this.page.modulePath}:1:1 (a style attribute)`;
    const before = this.page.sourceText.slice(0, at).split("\n");
    return `${this.page.modulePath}:${before.length}:${(before.at(-1)?.length ?? 0) + 1}`;
  }
}

interface Found {
  node: Node;
  /** The element first, then each ancestor. */
  chain: Node[];
  text: string;
}

/** Elements with text of their own, each with its ancestors (element first), at most `MAX_TEXT_ELEMENTS`. */
function textElements(root: Node): { found: Found[]; truncated: boolean } {
  const found: Found[] = [];
  let truncated = false;
  const walk = (n: Node, chain: Node[]) => {
    if (n.nodeType === 1 && SKIP.has(n.nodeName.toUpperCase())) return;
    const here = n.nodeType === 1 ? [n, ...chain] : chain;
    if (n.nodeType === 1) {
      const text = (n.children ?? [])
        .filter((c) => c.nodeType === 3)
        .map((c) => c.nodeValue ?? "")
        .join("")
        .replace(/\s+/g, " ")
        .trim();
      if (text) {
        if (found.length >= MAX_TEXT_ELEMENTS) truncated = true;
        else found.push({ node: n, chain: here, text: text.slice(0, MAX_TEXT_SNIPPET) });
      }
    }
    for (const c of [...(n.shadowRoots ?? []), ...(n.children ?? [])]) walk(c, here);
  };
  walk(root, []);
  return { found, truncated };
}

/** The element and each ancestor as painted layers, with where a painted background or opacity comes from. */
async function layersOf(styles: Styles, chain: Node[], page: PageSpec): Promise<CascadeLayer[]> {
  const layers: CascadeLayer[] = [];
  for (const a of chain) {
    const s = await styles.style(a);
    const bg = s.get("background-color") ?? "";
    const image = s.get("background-image") ?? "";
    const opacity = s.get("opacity") ?? "";
    const painted = !/^rgba\(\s*0,\s*0,\s*0,\s*0\s*\)$|^transparent$/.test(bg) || image !== "none";
    const where = painted
      ? await styles.sourceOf(a, BACKGROUND, false)
      : opacity !== "1"
        ? await styles.sourceOf(a, ["opacity"], false)
        : null;
    layers.push({
      label: (page.generated && attr(a, LABEL_ATTR)) || shortLabel(a),
      backgroundColor: bg,
      backgroundImage: image,
      opacity,
      display: s.get("display") ?? "",
      visibility: s.get("visibility") ?? "",
      where,
    });
  }
  return layers;
}

/** One text element as observed, in the pseudo-states its generated rule forces; undefined: not rendered. */
async function readElement(
  send: Send,
  styles: Styles,
  f: Found,
  page: PageSpec,
): Promise<TextElement | undefined> {
  const { node, chain, text } = f;
  const state = page.generated
    ? (attr(node, STATE_ATTR) ?? "").split(/\s+/).filter((s) => FORCEABLE_STATES.includes(s))
    : [];
  const force = async (classes: string[]) => {
    await send("CSS.forcePseudoState", { nodeId: node.nodeId, forcedPseudoClasses: classes });
    styles.forget(node, chain);
  };
  if (state.length) await force(state);
  const own = await styles.style(node);
  // An element with no computed style is not rendered (the fallback <summary> in a <details> element's
  // user-agent shadow root, when the element has a summary of its own): no text on the page to judge.
  if (!own.get("font-size")) {
    if (state.length) await force([]);
    return undefined;
  }
  const layers = await layersOf(styles, chain, page);
  const label =
    (page.generated && attr(node, LABEL_ATTR)) || chain.slice(0, -1).reverse().map(shortLabel).join(" > ");
  const element: TextElement = {
    label: label.slice(0, 4096),
    text,
    color: own.get("color") ?? "",
    textFill: own.get("-webkit-text-fill-color") ?? "",
    fontSize: own.get("font-size") ?? "",
    fontWeight: own.get("font-weight") ?? "",
    colorFrom: await styles.sourceOf(node, ["color"], true),
    rule: page.generated ? (attr(node, RULE_ATTR) ?? null) : null,
    state,
    layers,
  };
  if (state.length) await force([]);
  return element;
}

/** Reads the loaded page at `url`; throws when it navigated away (a refresh to a clean sibling is not the module). */
export async function readPage(
  send: Send,
  cdp: PipeCdp,
  page: PageSpec,
  url: string,
  sheets: Map<string, Sheet>,
): Promise<CascadeObservation> {
  const { root } = (await send("DOM.getDocument", { depth: -1, pierce: true })) as {
    root: Node & { documentURL?: string };
  };
  const stillHere = (doc: string | undefined) => {
    if (doc !== url) throw new Error(`the page navigated away from ${url} to ${String(doc).slice(0, 200)}`);
  };
  stillHere(root.documentURL);
  const styles = new Styles(send, page, sheets);
  const { found, truncated } = textElements(root);
  const elements: TextElement[] = [];
  for (const f of found) {
    const element = await readElement(send, styles, f, page);
    if (element) elements.push(element);
  }
  const history = (await send("Page.getNavigationHistory")) as {
    currentIndex: number;
    entries: { url: string }[];
  };
  stillHere(history.entries[history.currentIndex]?.url);
  await cdp.send("Browser.close").catch(() => {});
  return { elements, truncated };
}
