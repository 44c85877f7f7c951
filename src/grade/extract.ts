/**
 * Extractors: how an assertion takes its value from the agent's output (`extract:` in a case file).
 * `text` (default), `first-number`, `last-line`, `json:<path>`, `code-block`.
 * An extractor that finds nothing returns `{ok: false}`: the assertion then fails whether or not it is negated,
 * so a missing answer can never satisfy a "must not be X" check.
 */

export type Extracted = { ok: true; value: unknown; description: string } | { ok: false; reason: string };

const EXTRACTOR_NAMES = ["text", "first-number", "last-line", "json:<path>", "code-block"] as const;

/** Numbers as agents write them: optional sign, thousands separators, decimals. */
const NUMBER_PATTERN = /[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?/;
const FENCE_PATTERN = /```[^\n`]*\n([\s\S]*?)```/;

/** Returns an error message when `spec` is not a known extractor (used by the suite validator). */
export function checkExtractor(spec: string): string | undefined {
  if (spec === "text" || spec === "first-number" || spec === "last-line" || spec === "code-block") return;
  if (spec.startsWith("json:")) {
    const err = parseJsonPath(spec.slice(5)).error;
    return err ? `bad json path in extract "${spec}": ${err}` : undefined;
  }
  if (spec === "json") return;
  return `unknown extractor "${spec}" (expected one of: ${EXTRACTOR_NAMES.join(", ")})`;
}

export function extract(spec: string | undefined, output: string): Extracted {
  const name = spec ?? "text";
  switch (name) {
    case "text":
      return { ok: true, value: output, description: "output" };
    case "first-number": {
      const m = NUMBER_PATTERN.exec(output);
      if (!m) return { ok: false, reason: "no number in the output" };
      return { ok: true, value: parseNumber(m[0]), description: `first number ${m[0]}` };
    }
    case "last-line": {
      const lines = output.split(/\r?\n/).filter((l) => l.trim() !== "");
      const last = lines.at(-1);
      if (last === undefined) return { ok: false, reason: "the output is empty" };
      return { ok: true, value: last.trim(), description: "last line" };
    }
    case "code-block": {
      const m = FENCE_PATTERN.exec(output);
      if (!m) return { ok: false, reason: "no fenced code block in the output" };
      return { ok: true, value: m[1] ?? "", description: "first code block" };
    }
    default: {
      if (name !== "json" && !name.startsWith("json:"))
        return { ok: false, reason: checkExtractor(name) ?? name };
      const path = name === "json" ? "" : name.slice(5);
      const doc = findJson(output);
      if (!doc.ok) return doc;
      const got = getPath(doc.value, path);
      if (!got.ok) return got;
      return { ok: true, value: got.value, description: path ? `JSON at ${path}` : "JSON output" };
    }
  }
}

export function parseNumber(s: string): number {
  return Number(s.replace(/−/g, "-").replace(/,/g, ""));
}

/** The output as JSON: the whole text, else the first fenced block that parses, else the first balanced {…}/[…]. */
export function findJson(output: string): Extracted {
  const whole = tryParse(output.trim());
  if (whole.ok) return whole;
  for (const m of output.matchAll(/```[^\n`]*\n([\s\S]*?)```/g)) {
    const r = tryParse((m[1] ?? "").trim());
    if (r.ok) return r;
  }
  for (let i = 0; i < output.length; i++) {
    const c = output[i];
    if (c !== "{" && c !== "[") continue;
    const end = balancedEnd(output, i);
    if (end < 0) continue;
    const r = tryParse(output.slice(i, end + 1));
    if (r.ok) return r;
  }
  return { ok: false, reason: "no JSON found in the output" };
}

function tryParse(s: string): Extracted {
  if (s === "") return { ok: false, reason: "empty" };
  try {
    return { ok: true, value: JSON.parse(s) as unknown, description: "JSON output" };
  } catch {
    return { ok: false, reason: "not JSON" };
  }
}

/** Index of the bracket closing the one at `start`, skipping strings; −1 when unbalanced. */
function balancedEnd(s: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** `a.b[0].c`, optionally starting with `$.` or `$`. */
function parseJsonPath(path: string): { segments: (string | number)[]; error?: string } {
  let p = path.trim();
  if (p.startsWith("$")) p = p.slice(1);
  if (p.startsWith(".")) p = p.slice(1);
  const segments: (string | number)[] = [];
  if (p.includes("..") || p.endsWith(".")) return { segments, error: "empty path segment" };
  const re = /([^.[\]]+)|\[(\d+)\]|\[["']([^"']*)["']\]|(\.)/g;
  let consumed = 0;
  for (const m of p.matchAll(re)) {
    if (m.index !== consumed) return { segments, error: `unexpected "${p.slice(consumed, m.index)}"` };
    consumed = m.index + m[0].length;
    if (m[1] !== undefined) segments.push(/^\d+$/.test(m[1]) ? Number(m[1]) : m[1]);
    else if (m[2] !== undefined) segments.push(Number(m[2]));
    else if (m[3] !== undefined) segments.push(m[3]);
  }
  if (consumed !== p.length) return { segments, error: `unexpected "${p.slice(consumed)}"` };
  return { segments };
}

export function getPath(doc: unknown, path: string): Extracted {
  const { segments, error } = parseJsonPath(path);
  if (error) return { ok: false, reason: `bad json path "${path}": ${error}` };
  let cur: unknown = doc;
  for (const seg of segments) {
    if (cur === null || typeof cur !== "object" || !(String(seg) in (cur as object))) {
      return { ok: false, reason: `no value at JSON path "${path}" (missing "${seg}")` };
    }
    cur = (cur as Record<string, unknown>)[String(seg)];
  }
  return { ok: true, value: cur, description: `JSON at ${path}` };
}
