/**
 * contrast, the browser half: a page (an `.html` module, or the page generated for a `.css` module by
 * `page.ts`) is loaded in Debian's headless Chromium **inside the sandbox** (bubblewrap through
 * `spawnLimited`'s confinement: its own pid/net/ipc/uts namespaces, the sandbox uid, a private size-capped /tmp
 * holding a fresh profile, no network), with page JavaScript disabled (`--blink-settings=scriptEnabled=false`
 * and `Emulation.setScriptExecutionDisabled` before the navigation), spoken to over `--remote-debugging-pipe`
 * (no TCP port). The styles are read through the DevTools `DOM` and `CSS` domains, never from the page: for
 * every element with text of its own, its computed colour and font, and for it and each ancestor the computed
 * background colour, background image, opacity, display and visibility, plus where (file:line:column) the
 * winning `color`, background and `opacity` declarations come from (`CSS.getMatchedStylesForNode`).
 *
 * This module makes no decision: what it returns is the observation, validated against
 * `CASCADE_OBSERVATION_SCHEMA` and judged by `cascade.ts` in skillgate's process. Chromium never runs
 * unconfined: without bubblewrap, or without Chromium, the answer is an error the judge fails on.
 */
import { accessSync, chmodSync, constants, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { scratchDir } from "../../src/sandbox/compile.js";
import { scrubbedEnv } from "../../src/sandbox/env.js";
import { isolation } from "../../src/sandbox/isolation/detect.js";
import type { ConfineLimits } from "../../src/sandbox/isolation/types.js";
import { spawnLimited } from "../../src/sandbox/process.js";
import { PipeCdp } from "./cdp.js";

/** Where Debian/Ubuntu put the browser binary itself (`/usr/bin/chromium` is a launcher script reading /etc). */
export const CHROMIUM_BINARIES = ["/usr/lib/chromium/chromium", "/usr/lib/chromium-browser/chromium-browser"];
/**
 * The browser binary itself, when it is elsewhere (Google Chrome's `/opt/google/chrome/chrome`, a Chromium
 * unpacked into a folder): read from skillgate's own environment, which the runner's workflow sets (the base
 * branch's; a PR that changes it is a policy change), never from the repository. A launcher script or a snap
 * wrapper does not start inside the sandbox.
 */
export const CHROMIUM_PATH_VARIABLE = "SKILLGATE_CHROMIUM";
const CHROMIUM_INSTALL_HINT = `install Debian's headless-capable Chromium (apt-get install chromium), or set ${CHROMIUM_PATH_VARIABLE} to a Chromium or Chrome binary (not a launcher script): the gate computes the CSS cascade with it`;

/** Where to look: the configured binary only, when set; else Debian's and Ubuntu's. */
export function chromiumCandidates(env: NodeJS.ProcessEnv = process.env): readonly string[] {
  const configured = env[CHROMIUM_PATH_VARIABLE];
  return configured ? [configured] : CHROMIUM_BINARIES;
}

/**
 * Time and memory of one Chromium run unless the gate run sets its own (`--timeout`, `--memory`). Chromium's
 * processes share pages: the summed RSS the limit watches overcounts them.
 */
const CHROMIUM_LIMITS = Object.freeze({ timeoutMs: 60_000, memoryMb: 2048 });
const CHROMIUM_CONFINE_LIMITS: ConfineLimits = Object.freeze({
  processes: 1024, // threads count: Chromium starts a few hundred
  fileSizeBytes: 64 * 1024 * 1024,
  tmpBytes: 256 * 1024 * 1024, // the profile
  openFiles: 4096,
  // Replaced by the run's memory cap (`runLimits`: RLIMIT_DATA per process, the cgroup over the tree and /tmp).
  dataBytes: CHROMIUM_LIMITS.memoryMb * 1024 * 1024,
  memoryBytes: CHROMIUM_LIMITS.memoryMb * 1024 * 1024,
});
/** Elements with text checked at most; a page with more fails (`coverage`) rather than being checked in part. */
const MAX_TEXT_ELEMENTS = 2000;
const MAX_TEXT_SNIPPET = 40;

/** Attributes `page.ts` puts on the elements it generates (honoured only for generated pages). */
export const LABEL_ATTR = "data-skillgate-label";
export const RULE_ATTR = "data-skillgate-rule";
export const STATE_ATTR = "data-skillgate-state";
export const FORCEABLE_STATES = ["active", "focus", "focus-visible", "focus-within", "hover", "visited"];

export interface CascadeLayer {
  label: string;
  backgroundColor: string;
  backgroundImage: string;
  opacity: string;
  display: string;
  visibility: string;
  /** file:line:column of the winning background (or opacity) declaration, when it comes from an author rule. */
  where: string | null;
}
export interface TextElement {
  label: string;
  text: string;
  color: string;
  /** `-webkit-text-fill-color`, which paints the glyphs when set. */
  textFill: string;
  fontSize: string;
  fontWeight: string;
  /** file:line:column of the winning `color` declaration (own or inherited). */
  colorFrom: string | null;
  /** The rule that generated the element (generated pages). */
  rule: string | null;
  /** Pseudo-classes forced on it (`hover`, …), generated pages only. */
  state: string[];
  /** The element first, then each ancestor up to `html`. */
  layers: CascadeLayer[];
}
export type CascadeObservation =
  | { elements: TextElement[]; truncated: boolean }
  | { error: string; kind: "chromium-missing" | "chromium-sandbox" | "chromium" };

const STRING = { type: "string", maxLength: 4096 };
const WHERE = { type: ["string", "null"], maxLength: 4096 };
const LAYER_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["label", "backgroundColor", "backgroundImage", "opacity", "display", "visibility", "where"],
  properties: {
    label: STRING,
    backgroundColor: STRING,
    backgroundImage: STRING,
    opacity: { type: "string", pattern: "^(?:\\d+(?:\\.\\d+)?(?:e-?\\d+)?)$" },
    display: STRING,
    visibility: STRING,
    where: WHERE,
  },
};
export const CASCADE_OBSERVATION_SCHEMA = {
  oneOf: [
    {
      type: "object",
      additionalProperties: false,
      required: ["elements", "truncated"],
      properties: {
        truncated: { type: "boolean" },
        elements: {
          type: "array",
          maxItems: MAX_TEXT_ELEMENTS,
          items: {
            type: "object",
            additionalProperties: false,
            required: [
              "label",
              "text",
              "color",
              "textFill",
              "fontSize",
              "fontWeight",
              "colorFrom",
              "rule",
              "state",
              "layers",
            ],
            properties: {
              label: STRING,
              text: STRING,
              color: STRING,
              textFill: STRING,
              fontSize: { type: "string", pattern: "^\\d+(?:\\.\\d+)?(?:e[-+]?\\d+)?px$" },
              fontWeight: { type: "string", pattern: "^\\d+(?:\\.\\d+)?$" },
              colorFrom: WHERE,
              rule: WHERE,
              state: { type: "array", maxItems: 8, items: { enum: FORCEABLE_STATES } },
              layers: { type: "array", minItems: 1, maxItems: 512, items: LAYER_SCHEMA },
            },
          },
        },
      },
    },
    {
      type: "object",
      additionalProperties: false,
      required: ["error", "kind"],
      properties: { error: STRING, kind: { enum: ["chromium-missing", "chromium-sandbox", "chromium"] } },
    },
  ],
};

export function findChromium(candidates: readonly string[] = chromiumCandidates()): string | undefined {
  for (const file of candidates) {
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Flags of the confined browser: headless, no GPU, nothing that phones home, no extension, no script. */
function chromiumArgs(profile: string): string[] {
  return [
    "--headless",
    "--no-sandbox", // its own sandbox needs namespaces bubblewrap does not give it; bubblewrap is the boundary
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-breakpad",
    "--disable-dev-shm-usage",
    // One process (no zygote, renderer in the browser process): about half the start-up time on a loaded
    // machine (12 s against 22 s measured at load 15 on 2 cores). Without Chromium's own sandbox a renderer
    // exploit reaches the browser process either way; bubblewrap is the boundary.
    "--single-process",
    "--no-zygote",
    "--disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication",
    "--blink-settings=scriptEnabled=false",
    "--mute-audio",
    `--user-data-dir=${profile}`,
    "--remote-debugging-pipe",
    "about:blank",
  ];
}

/** A page to observe: the file Chromium loads, and the folders it may read (bound read-only). */
export interface PageSpec {
  file: string;
  readable: string[];
  /** Generated page: honour the `data-skillgate-*` attributes. */
  generated: boolean;
  /** Source text of the module, to place inline `style` attributes (`.html`). */
  sourceText: string;
  modulePath: string;
}

/** Writes a generated page into a fresh folder of the scratch area readable by the sandbox uid. */
export function writePage(html: string): string {
  const dir = mkdtempSync(join(scratchDir(), "contrast-page-"));
  chmodSync(dir, 0o755);
  const file = join(dir, "page.html");
  writeFileSync(file, html, { mode: 0o644 });
  return file;
}

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
type Matched = {
  inlineStyle?: Style;
  matchedCSSRules?: { rule: Rule }[];
  inherited?: { inlineStyle?: Style; matchedCSSRules?: { rule: Rule }[] }[];
};
type Sheet = { sourceURL: string; startLine: number; startColumn: number; isInline: boolean };
/** How long a rule's stylesheet header may lag behind the rule (CSS.styleSheetAdded is an event of its own). */
const SHEET_EVENT_WAIT_MS = 5_000;

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

const SKIP = new Set(["HEAD", "SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "TITLE"]);

/**
 * Confines, launches, observes and tears down Chromium; never throws. A browser that ended on its own (a crash,
 * not the time or memory limit) is started once more: a page that crashes it every time still fails.
 */
export async function observeCascade(
  page: PageSpec,
  limits: { timeoutMs?: number; memoryMb?: number } = {},
  candidates: readonly string[] = chromiumCandidates(),
): Promise<CascadeObservation> {
  const started = Date.now();
  const timeoutMs = limits.timeoutMs ?? CHROMIUM_LIMITS.timeoutMs;
  const memoryMb = limits.memoryMb ?? CHROMIUM_LIMITS.memoryMb;
  const first = await observeOnce(page, timeoutMs, memoryMb, candidates);
  if (!first.crashed) return first.obs;
  const left = timeoutMs - (Date.now() - started);
  return left > 1000 ? (await observeOnce(page, left, memoryMb, candidates)).obs : first.obs;
}

async function observeOnce(
  page: PageSpec,
  timeoutMs: number,
  memoryMb: number,
  candidates: readonly string[],
): Promise<{ obs: CascadeObservation; crashed?: boolean }> {
  const binary = findChromium(candidates);
  if (!binary)
    return {
      obs: {
        kind: "chromium-missing",
        error: `Chromium is not installed (${candidates.join(", ")}): ${CHROMIUM_INSTALL_HINT}`,
      },
    };
  const iso = await isolation();
  if (iso.level === "none")
    return {
      obs: {
        kind: "chromium-sandbox",
        error: `refusing to run Chromium on untrusted CSS/HTML outside the sandbox (${iso.reason}): apt-get install bubblewrap`,
      },
    };
  if (iso.level === "uid+namespaces")
    for (const dir of page.readable)
      if ((statSync(dir).mode & 0o005) !== 0o005)
        return {
          obs: {
            kind: "chromium",
            error: `the folder ${dir} is closed to the sandbox's uid; it must be readable by others (chmod o+rx)`,
          },
        };
  const cdp = new PipeCdp();
  // Inside: the browser's fd 3 (commands) is our stdin, its fd 4 (answers) is the result channel (our fd 3).
  const shim = 'exec 4>&3 3<&0 0</dev/null; exec "$@"';
  const running = spawnLimited({
    command: "/bin/sh",
    args: ["-c", shim, "sh", binary, ...chromiumArgs("/tmp/profile")],
    cwd: "/tmp",
    env: scrubbedEnv({ HOME: "/tmp", TMPDIR: "/tmp", DBUS_SESSION_BUS_ADDRESS: "disabled:" }),
    onStdin: (s) => cdp.attach(s),
    resultChannel: true,
    onResultChunk: (c) => cdp.feed(c),
    timeoutMs,
    rssLimitMb: memoryMb,
    confine: {
      readOnly: [dirname(binary), ...page.readable, "/etc/fonts"].filter((p) => exists(p)),
      limits: CHROMIUM_CONFINE_LIMITS,
    },
  });
  let ended = false;
  const outcome = running.then((o) => {
    ended = true;
    cdp.close(new Error("Chromium ended"));
    return o;
  });
  try {
    return { obs: await collect(cdp, page) };
  } catch (err) {
    const o = ended ? await outcome : undefined;
    const why = o?.killedFor
      ? o.killedFor === "timeout"
        ? `took longer than ${timeoutMs} ms (killed)`
        : `used more than ${memoryMb} MiB (killed)`
      : o?.spawnError
        ? `could not start: ${o.spawnError}`
        : (err as Error).message;
    const tail = o?.stderr
      ?.split("\n")
      .filter((l) => l.trim() && !/dbus|bus\.cc/i.test(l))
      .slice(-2)
      .join(" ");
    return {
      obs: { kind: "chromium", error: `Chromium ${why}${tail ? ` (${tail.slice(0, 300)})` : ""}` },
      crashed: ended && !o?.killedFor && !o?.spawnError,
    };
  } finally {
    cdp.close(new Error("observation over"));
    await outcome;
  }
}

function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}

async function collect(cdp: PipeCdp, page: PageSpec): Promise<CascadeObservation> {
  const targets = (await cdp.send("Target.getTargets")) as {
    targetInfos: { targetId: string; type: string }[];
  };
  const target = targets.targetInfos.find((t) => t.type === "page");
  const targetId = target
    ? target.targetId
    : ((await cdp.send("Target.createTarget", { url: "about:blank" })) as { targetId: string }).targetId;
  const { sessionId } = (await cdp.send("Target.attachToTarget", { targetId, flatten: true })) as {
    sessionId: string;
  };
  const send = (m: string, p: Record<string, unknown> = {}) => cdp.send(m, p, sessionId);
  await send("Emulation.setScriptExecutionDisabled", { value: true });
  await send("Page.enable");
  await send("DOM.enable");
  const sheets = new Map<string, Sheet>();
  const sheetEvents = listenSheets(cdp, sessionId, sheets);
  await send("CSS.enable");
  const loaded = cdp.waitFor("Page.loadEventFired", sessionId);
  const url = pathToFileURL(page.file).href;
  const nav = (await send("Page.navigate", { url })) as { errorText?: string };
  if (nav.errorText) throw new Error(`could not load ${page.file}: ${nav.errorText}`);
  await loaded;
  // The listener stays on until the page is read: a sheet's header may arrive after the load event (the wait in
  // `matched` counts on it; stopping here left a CI run without the rule's file:line).
  try {
    return await readPage(send, cdp, page, url, sheets);
  } finally {
    sheetEvents.stop();
  }
}

async function readPage(
  send: (m: string, p?: Record<string, unknown>) => Promise<unknown>,
  cdp: PipeCdp,
  page: PageSpec,
  url: string,
  sheets: Map<string, Sheet>,
): Promise<CascadeObservation> {
  const { root } = (await send("DOM.getDocument", { depth: -1, pierce: true })) as {
    root: Node & { documentURL?: string };
  };
  // A page that navigates away (`<meta http-equiv="refresh">` to a clean sibling page) is not the module.
  const stillHere = async (doc: string | undefined) => {
    if (doc !== url) throw new Error(`the page navigated away from ${url} to ${String(doc).slice(0, 200)}`);
  };
  await stillHere(root.documentURL);

  const computed = new Map<number, Map<string, string>>();
  const style = async (n: Node) => {
    let s = computed.get(n.nodeId);
    if (!s) {
      const r = (await send("CSS.getComputedStyleForNode", { nodeId: n.nodeId })) as {
        computedStyle: { name: string; value: string }[];
      };
      s = new Map(r.computedStyle.map((p) => [p.name, p.value]));
      computed.set(n.nodeId, s);
    }
    return s;
  };
  const matchedCache = new Map<number, Matched>();
  const matched = async (n: Node) => {
    let m = matchedCache.get(n.nodeId);
    if (!m) {
      m = (await send("CSS.getMatchedStylesForNode", { nodeId: n.nodeId })) as Matched;
      // A sheet's `styleSheetAdded` event may come after the rules that cite it: wait for it (bounded), or the
      // rule's file:line would be missing for this run only.
      const cited = [m, ...(m.inherited ?? [])].flatMap((level) =>
        (level.matchedCSSRules ?? [])
          .map(({ rule }) => (rule.origin === "regular" ? rule.styleSheetId : undefined))
          .filter((id): id is string => typeof id === "string"),
      );
      for (const until = Date.now() + SHEET_EVENT_WAIT_MS; cited.some((id) => !sheets.has(id)); ) {
        if (Date.now() >= until) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      matchedCache.set(n.nodeId, m);
    }
    return m;
  };
  const locate = (rule: Rule): string | null => {
    const sheet = rule.styleSheetId ? sheets.get(rule.styleSheetId) : undefined;
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
  };
  const locateInline = (s: Style): string => {
    const text = (s.cssText ?? "").trim();
    const at = text ? page.sourceText.indexOf(text) : -1;
    if (at < 0) return `${page.modulePath}:1:1 (a style attribute)`;
    const before = page.sourceText.slice(0, at).split("\n");
    return `${page.modulePath}:${before.length}:${(before.at(-1)?.length ?? 0) + 1}`;
  };
  /** Where the winning declaration of one of `props` comes from in one level (own or one inherited entry). */
  const winner = (level: { inlineStyle?: Style; matchedCSSRules?: { rule: Rule }[] }, props: string[]) => {
    const has = (s: Style | undefined, important: boolean) =>
      (s?.cssProperties ?? []).some(
        (p) =>
          props.includes(p.name) && !p.disabled && p.parsedOk !== false && Boolean(p.important) === important,
      );
    const rules = level.matchedCSSRules ?? [];
    for (const important of [true, false]) {
      if (has(level.inlineStyle, important)) return locateInline(level.inlineStyle as Style);
      for (let i = rules.length - 1; i >= 0; i--) {
        const rule = (rules[i] as { rule: Rule }).rule;
        if (!has(rule.style, important)) continue;
        return rule.origin === "regular" ? locate(rule) : null;
      }
    }
    return undefined;
  };
  const sourceOf = async (n: Node, props: string[], inherits: boolean): Promise<string | null> => {
    const m = await matched(n);
    const own = winner(m, props);
    if (own !== undefined || !inherits) return own ?? null;
    for (const level of m.inherited ?? []) {
      const w = winner(level, props);
      if (w !== undefined) return w;
    }
    return null;
  };

  // Elements with text of their own, each with its ancestors (element first).
  const found: { node: Node; chain: Node[]; text: string }[] = [];
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

  const elements: TextElement[] = [];
  for (const { node, chain, text } of found) {
    const state = page.generated
      ? (attr(node, STATE_ATTR) ?? "").split(/\s+/).filter((s) => FORCEABLE_STATES.includes(s))
      : [];
    if (state.length) {
      await send("CSS.forcePseudoState", { nodeId: node.nodeId, forcedPseudoClasses: state });
      for (const a of chain) computed.delete(a.nodeId);
      matchedCache.delete(node.nodeId);
    }
    const own = await style(node);
    // An element with no computed style is not rendered (the fallback <summary> in a <details> element's
    // user-agent shadow root, when the element has a summary of its own): no text on the page to judge.
    if (!own.get("font-size")) {
      if (state.length) await send("CSS.forcePseudoState", { nodeId: node.nodeId, forcedPseudoClasses: [] });
      continue;
    }
    const layers: CascadeLayer[] = [];
    for (const a of chain) {
      const s = await style(a);
      const bg = s.get("background-color") ?? "";
      const image = s.get("background-image") ?? "";
      const opacity = s.get("opacity") ?? "";
      const painted = !/^rgba\(\s*0,\s*0,\s*0,\s*0\s*\)$|^transparent$/.test(bg) || image !== "none";
      const where = painted
        ? await sourceOf(a, ["background-color", "background", "background-image"], false)
        : opacity !== "1"
          ? await sourceOf(a, ["opacity"], false)
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
    const label =
      (page.generated && attr(node, LABEL_ATTR)) || chain.slice(0, -1).reverse().map(shortLabel).join(" > ");
    elements.push({
      label: label.slice(0, 4096),
      text,
      color: own.get("color") ?? "",
      textFill: own.get("-webkit-text-fill-color") ?? "",
      fontSize: own.get("font-size") ?? "",
      fontWeight: own.get("font-weight") ?? "",
      colorFrom: await sourceOf(node, ["color"], true),
      rule: page.generated ? (attr(node, RULE_ATTR) ?? null) : null,
      state,
      layers,
    });
    if (state.length) {
      await send("CSS.forcePseudoState", { nodeId: node.nodeId, forcedPseudoClasses: [] });
      for (const a of chain) computed.delete(a.nodeId);
      matchedCache.delete(node.nodeId);
    }
  }
  const history = (await send("Page.getNavigationHistory")) as {
    currentIndex: number;
    entries: { url: string }[];
  };
  await stillHere(history.entries[history.currentIndex]?.url);
  await cdp.send("Browser.close").catch(() => {});
  return { elements, truncated };
}

function listenSheets(cdp: PipeCdp, sessionId: string, sheets: Map<string, Sheet>): { stop(): void } {
  const stop = cdp.on((e) => {
    if (e.method !== "CSS.styleSheetAdded" || e.sessionId !== sessionId) return;
    const h = e.params.header as Record<string, unknown> | undefined;
    if (h && typeof h.styleSheetId === "string")
      sheets.set(h.styleSheetId, {
        sourceURL: String(h.sourceURL ?? ""),
        startLine: Number(h.startLine) || 0,
        startColumn: Number(h.startColumn) || 0,
        isInline: h.isInline === true,
      });
  });
  return { stop };
}
