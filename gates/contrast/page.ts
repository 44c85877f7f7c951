/**
 * The page a `.css` module is checked on: the stylesheet itself is linked (so Chromium's cascade, and its
 * source positions, are the file's own), and the body holds, for every selector of every style rule, the
 * elements that selector implies: `.card .title` is a `div.card` holding a `div.title`, `ul > li.active` a
 * `ul` holding an `li.active`, `h2 + p` an `h2` followed by a `p`; tags, classes, ids and attribute selectors
 * (`[type=checkbox]`, `[aria-current="page"]`) are given to the element. A leading `html`, `body` or `:root`
 * is the page's own. The subject (last compound) of each selector holds sample text and names its rule
 * (`data-skillgate-rule`, `data-skillgate-label`); state pseudo-classes (`:hover`, `:focus`, …) are recorded
 * (`data-skillgate-state`) for the browser half to force with `CSS.forcePseudoState`.
 *
 * Not reached (reported in `notReached`): selectors with pseudo-elements (`::before`, `::placeholder`),
 * structural or other pseudo-classes beyond what the generated element happens to satisfy (`:nth-child(2)`),
 * class combinations no selector names (`class="btn btn-primary"` when only `.btn` and `.btn-primary` exist),
 * and rules in at-rules whose condition the 800×600 screen viewport does not meet (`@media print`,
 * `prefers-color-scheme: dark`).
 */
import postcss from "postcss";
import { FORCEABLE_STATES, LABEL_ATTR, RULE_ATTR, STATE_ATTR } from "./observation.js";

const SAMPLE_TEXT = "Sample text";
/** Elements generated at most (a hostile stylesheet with a million selectors fails, it is not truncated). */
const MAX_GENERATED = 1500;
const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);
const NO_BODY_TAGS = new Set(["head", "title", "style", "script", "meta", "link", "template", "noscript"]);

interface Compound {
  tag?: string;
  id?: string;
  classes: string[];
  attrs: [string, string][];
  states: string[];
  /** Pseudo-elements or pseudo-classes that no generated element is made to satisfy. */
  unreached: string[];
  root: boolean;
}
type Combinator = " " | ">" | "+" | "~";

interface El {
  tag: string;
  attrs: [string, string][];
  children: El[];
  text?: string;
}

interface GeneratedPage {
  html: string;
  /** Selectors with the part that is not reached (`a::before`: `::before`). */
  notReached: { selector: string; where: string; why: string }[];
  elements: number;
}

function readIdent(s: string, i: number): [string, number] {
  let out = "";
  while (i < s.length) {
    const ch = s[i] as string;
    if (ch === "\\" && i + 1 < s.length) {
      out += s[i + 1];
      i += 2;
    } else if (/[\w\u00a0-\uffff-]/.test(ch)) {
      out += ch;
      i++;
    } else break;
  }
  return [out, i];
}

/** Reads up to the bracket closing the one at `i` (`(` or `[`), quotes respected; returns [inner, next index]. */
function readGroup(s: string, i: number): [string, number] {
  const open = s[i] as string;
  const close = open === "(" ? ")" : "]";
  let depth = 0;
  let quote: string | undefined;
  for (let j = i; j < s.length; j++) {
    const ch = s[j];
    if (quote) {
      if (ch === "\\") j++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === open) depth++;
    else if (ch === close && --depth === 0) return [s.slice(i + 1, j), j + 1];
  }
  throw new Error(`unclosed ${open}`);
}

function parseAttr(inner: string): [string, string] {
  const m =
    /^\s*([\w-]+)\s*(?:([~|^$*]?=)\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^\s\]]+))\s*(?:[is])?)?\s*$/.exec(
      inner,
    );
  if (!m?.[1]) throw new Error(`attribute selector [${inner}]`);
  return [m[1].toLowerCase(), (m[3] ?? m[4] ?? m[5] ?? "").replace(/\\(.)/g, "$1")];
}

/** Splits one selector into compounds and the combinators between them; throws on what it cannot read. */
function parseSelector(sel: string): { compounds: Compound[]; combinators: Combinator[] } {
  const compounds: Compound[] = [];
  const combinators: Combinator[] = [];
  let cur: Compound = { classes: [], attrs: [], states: [], unreached: [], root: false };
  let started = false;
  let pending: Combinator | undefined;
  const flush = () => {
    if (!started) return;
    compounds.push(cur);
    cur = { classes: [], attrs: [], states: [], unreached: [], root: false };
    started = false;
  };
  let i = 0;
  while (i < sel.length) {
    const ch = sel[i] as string;
    if (/\s/.test(ch)) {
      if (started) {
        flush();
        pending = " ";
      }
      i++;
    } else if (ch === ">" || ch === "+" || ch === "~") {
      flush();
      pending = ch;
      i++;
    } else {
      if (!started && compounds.length > 0) combinators.push(pending ?? " ");
      if (!started) pending = undefined;
      started = true;
      if (ch === "*") i++;
      else if (ch === "." || ch === "#") {
        const [name, j] = readIdent(sel, i + 1);
        if (!name) throw new Error(`empty ${ch} in ${sel}`);
        if (ch === ".") cur.classes.push(name);
        else cur.id = name;
        i = j;
      } else if (ch === "[") {
        const [inner, j] = readGroup(sel, i);
        cur.attrs.push(parseAttr(inner));
        i = j;
      } else if (ch === ":") {
        const element = sel[i + 1] === ":";
        const [name, j] = readIdent(sel, i + (element ? 2 : 1));
        let k = j;
        let arg = "";
        if (sel[k] === "(") [arg, k] = readGroup(sel, k);
        const lower = name.toLowerCase();
        const legacyElement = ["before", "after", "first-line", "first-letter"].includes(lower);
        if (element || legacyElement) cur.unreached.push(`::${lower}`);
        else if (lower === "root") cur.root = true;
        else if (FORCEABLE_STATES.includes(lower)) cur.states.push(lower);
        else if (
          [
            "not",
            "is",
            "where",
            "first-child",
            "last-child",
            "only-child",
            "first-of-type",
            "last-of-type",
            "only-of-type",
            "link",
            "any-link",
          ].includes(lower)
        ) {
          // satisfied by the generated element as it stands (or, for :is/:where, its own compound decides)
          if ((lower === "is" || lower === "where") && arg) cur.unreached.push(`:${lower}(${arg})`);
        } else cur.unreached.push(`:${lower}${arg ? `(${arg})` : ""}`);
        i = k;
      } else if (/[\w\\-]/.test(ch)) {
        const [name, j] = readIdent(sel, i);
        cur.tag = name.toLowerCase();
        i = j;
      } else throw new Error(`unexpected '${ch}' in ${sel}`);
    }
  }
  flush();
  if (compounds.length === 0) throw new Error("empty selector");
  return { compounds, combinators };
}

function element(c: Compound): El {
  const tag = c.tag && /^[a-z][a-z0-9-]*$/.test(c.tag) ? c.tag : "div";
  const attrs: [string, string][] = [];
  if (c.id) attrs.push(["id", c.id]);
  if (c.classes.length) attrs.push(["class", c.classes.join(" ")]);
  for (const [k, v] of c.attrs)
    if (k !== "id" && k !== "class" && !k.startsWith("data-skillgate")) attrs.push([k, v]);
  if (tag === "a" && !attrs.some(([k]) => k === "href")) attrs.push(["href", "#"]);
  return { tag, attrs, children: [] };
}

const escapeHtml = (s: string) =>
  s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");

function render(el: El): string {
  const attrs = el.attrs.map(([k, v]) => ` ${k}="${escapeHtml(v)}"`).join("");
  if (VOID.has(el.tag)) return `<${el.tag}${attrs}>`;
  return `<${el.tag}${attrs}>${el.text ? escapeHtml(el.text) : ""}${el.children.map(render).join("")}</${el.tag}>`;
}

/** The page for `css` (the module at `file`): throws postcss's CssSyntaxError when it does not parse. */
export function pageFromCss(css: string, file: string, href: string): GeneratedPage {
  const root = postcss.parse(css, { from: file });
  // Stands for the document element: nothing is generated inside it but body.
  const html: El = { tag: "html", attrs: [], children: [] };
  const body: El = { tag: "body", attrs: [], children: [] };
  const notReached: GeneratedPage["notReached"] = [];
  let count = 0;
  const seen = new Set<string>();
  root.walkRules((rule) => {
    // Rules inside @keyframes are not style rules.
    if (rule.parent?.type === "atrule" && /keyframes$/i.test((rule.parent as postcss.AtRule).name)) return;
    const start = rule.source?.start;
    const where = `${file}:${start?.line ?? 1}:${start?.column ?? 1}`;
    for (const selector of rule.selectors) {
      // A selector met again (a later rule for the same elements) styles the same element: generate it once.
      const norm = selector.replace(/\s+/g, " ").trim();
      if (seen.has(norm)) continue;
      seen.add(norm);
      let parsed: ReturnType<typeof parseSelector>;
      try {
        parsed = parseSelector(selector);
      } catch (err) {
        notReached.push({ selector, where, why: `not read: ${(err as Error).message}` });
        continue;
      }
      const unreached = parsed.compounds.flatMap((c) => c.unreached);
      if (parsed.compounds.some((c) => c.unreached.some((u) => u.startsWith("::")))) {
        notReached.push({ selector, where, why: `pseudo-element ${unreached.join(" ")}` });
        continue;
      }
      if (unreached.length) notReached.push({ selector, where, why: `${unreached.join(" ")} not forced` });
      let parent: El = body;
      let last: El | undefined;
      parsed.compounds.forEach((c, i) => {
        const plain = c.classes.length === 0 && !c.id && c.attrs.length === 0;
        if (plain && i === 0 && (c.root || c.tag === "html")) {
          last = html;
          return;
        }
        if (plain && c.tag === "body" && (last === undefined || last === html)) {
          last = body;
          parent = html;
          return;
        }
        const comb = i === 0 ? " " : (parsed.combinators[i - 1] ?? " ");
        const el = element(c);
        if (NO_BODY_TAGS.has(el.tag)) el.tag = "div";
        if (c.states.length) el.attrs.push([STATE_ATTR, c.states.join(" ")]);
        const into = comb === "+" || comb === "~" ? parent : (last ?? body);
        if (into === html) body.children.push(el);
        else into.children.push(el);
        if (comb === " " || comb === ">") parent = into;
        last = el;
        count++;
      });
      if (count > MAX_GENERATED) throw new Error(`more than ${MAX_GENERATED} generated elements`);
      const subject = last as El;
      if (subject === html) continue; // html's own text is body's
      if (!VOID.has(subject.tag) && !subject.attrs.some(([k]) => k === LABEL_ATTR)) {
        subject.text = SAMPLE_TEXT;
        subject.attrs.push([LABEL_ATTR, selector], [RULE_ATTR, where]);
      }
    }
  });
  if (!body.attrs.some(([k]) => k === LABEL_ATTR))
    body.attrs.push([LABEL_ATTR, "body"], [RULE_ATTR, `${file}:1:1`]);
  body.text ??= SAMPLE_TEXT;
  const head = `<head><meta charset="utf-8"><link rel="stylesheet" href="${escapeHtml(href)}"></head>`;
  const page = `<!doctype html>\n<html>${head}${render(body)}</html>\n`;
  return { html: page, notReached, elements: count };
}
