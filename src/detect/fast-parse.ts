/**
 * Fast paths for the two shapes that make up almost every file discovery reads, so a repository of 10,000
 * skills is not 10,000 runs of the full YAML composer (about 130 µs per small file): valid JSON (suite files)
 * and plain block YAML (SKILL.md frontmatter, suite cases). Both only ever answer for input they fully
 * understand; anything else returns undefined and goes through `yaml`. `test/detect/fast-parse.test.ts` checks
 * values, diagnostics and positions against `yaml` on generated input and on real files.
 */
import type { PathSegment } from "./source-file.js";

/** Where a value (and, in a mapping, its key) starts, by path; keys of the map are `JSON.stringify(path)`. */
export interface PositionIndex {
  value: Map<string, number>;
  key: Map<string, number>;
}

const pathKey = (path: readonly PathSegment[]) => JSON.stringify(path.map((p) => String(p)));

export function lookup(index: PositionIndex, path: readonly PathSegment[], wantKey: boolean): number {
  // The nearest existing ancestor, as locating through the YAML node tree does.
  for (let n = path.length; n >= 0; n--) {
    const k = pathKey(path.slice(0, n));
    const v = index.value.get(k);
    if (v === undefined) continue;
    // The key of the last step when it was a mapping key (an array step has none), as the YAML tree does.
    return wantKey ? (index.key.get(k) ?? v) : v;
  }
  return 0;
}

/**
 * Start offsets of every value and key of a text that `JSON.parse` accepted. The first of two equal keys
 * wins, as in the YAML node tree.
 */
export function indexJson(text: string): PositionIndex {
  const value = new Map<string, number>();
  const key = new Map<string, number>();
  let i = 0;
  const ws = () => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };
  const skipString = (): string => {
    const start = i;
    i++;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) i += 2;
      else if (c === 0x22) {
        i++;
        break;
      } else i++;
    }
    return JSON.parse(text.slice(start, i)) as string;
  };
  const parseValue = (path: string[], keyAt?: number): void => {
    ws();
    const k = pathKey(path);
    if (!value.has(k)) {
      value.set(k, i);
      if (keyAt !== undefined) key.set(k, keyAt);
    }
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        ws();
        const at = i;
        const name = skipString();
        ws();
        i++; // ':'
        parseValue([...path, name], at);
        ws();
        if (text[i++] === "}") return;
      }
    } else if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (let n = 0; ; n++) {
        parseValue([...path, String(n)]);
        ws();
        if (text[i++] === "]") return;
      }
    } else if (c === '"') skipString();
    else while (i < text.length && !/[\s,\]}]/.test(text[i]!)) i++;
  };
  parseValue([]);
  return { value, key };
}

const PRINTABLE = /^[\x20-\x7e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]*$/;
const KEY = /^([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*))?$/;
/** Numbers every reader agrees on (at most 15 digits, so `Number` and YAML give the same double). */
const NUMBER = /^-?(?:0|[1-9][0-9]{0,14})(?:\.[0-9]{1,15})?$/;
/** A block scalar header without indentation indicator or keep chomping: `|`, `|-`, `>`, `>-`. */
const BLOCK_SCALAR = /^([|>])(-?)(?: +#.*)?$/;

/** One line that holds something: its indentation, its text without indentation or trailing spaces, where. */
interface Line {
  indent: number;
  text: string;
  start: number;
  /** Its index among all lines of the text (block scalars read those, blank and `#` lines included). */
  row: number;
}

/** Thrown inside the block parser for anything outside its subset; the caller then uses `yaml`. */
const DECLINE = Symbol("decline");

/**
 * Block YAML of the shape suite cases and frontmatter are written in, as YAML would read it: mappings with
 * plain keys, block sequences (also at the parent key's indentation, and `- key: value` items), one-line
 * scalars (plain and quoted strings, decimal numbers, booleans, null), one-line flow sequences of such scalars,
 * and `|`/`>` block scalars whose lines are all equally indented, with comment lines and trailing comments.
 * Undefined for anything else: empty values, flow mappings, anchors, tags, multi-line plain or quoted scalars,
 * blank or deeper lines inside a block scalar, duplicate keys, tabs, document markers, any syntax error.
 */
export function parseBlockYaml(text: string): { value: unknown; index: PositionIndex } | undefined {
  const rows = text.split("\n");
  const lines: Line[] = [];
  let offset = 0;
  for (let row = 0; row < rows.length; row++) {
    const raw = rows[row]!;
    const start = offset;
    offset += raw.length + 1;
    // Printable characters only: no tabs, CR, BOM or Unicode line separators (which JS trims and YAML keeps).
    if (!PRINTABLE.test(raw)) return undefined;
    let end = raw.length;
    while (end > 0 && raw.charCodeAt(end - 1) === 0x20) end--;
    let indent = 0;
    while (indent < end && raw.charCodeAt(indent) === 0x20) indent++;
    if (indent === end || raw[indent] === "#") continue;
    lines.push({ indent, text: raw.slice(indent, end), start: start + indent, row });
  }
  if (lines.length === 0) return undefined;
  const value = new Map<string, number>();
  const key = new Map<string, number>();
  const record = (path: readonly string[], at: number, keyAt?: number) => {
    const k = pathKey(path);
    value.set(k, at);
    if (keyAt !== undefined) key.set(k, keyAt);
  };
  let i = 0;
  const isItem = (t: string) => t === "-" || t.startsWith("- ");

  /** The node whose first line is `line` (the current line, or the rest of a `- ` line). */
  const node = (line: Line, path: string[], keyAt?: number): unknown => {
    record(path, line.start, keyAt);
    if (isItem(line.text)) return sequence(line, path);
    if (KEY.test(line.text)) return mapping(line, path);
    throw DECLINE;
  };

  /** A one-line value: a flow sequence or a scalar. */
  const inline = (raw: string, at: number, path: string[], keyAt?: number): unknown => {
    record(path, at, keyAt);
    if (raw[0] !== "[") return scalar(raw);
    const out: unknown[] = [];
    let j = 1;
    const spaces = () => {
      while (raw.charCodeAt(j) === 0x20) j++;
    };
    spaces();
    if (raw[j] === "]") j++;
    else
      for (;;) {
        spaces();
        record([...path, String(out.length)], at + j);
        if (raw[j] === '"' || raw[j] === "'") {
          const [v, end] = quoted(raw, j);
          out.push(v);
          j = end;
        } else {
          let k = j;
          while (k < raw.length && !FLOW_STOP.has(raw[k]!)) k++;
          out.push(plain(raw.slice(j, k).replace(/ +$/, "")));
          j = k;
        }
        spaces();
        if (raw[j] === ",") j++;
        else if (raw[j] === "]") {
          j++;
          break;
        } else throw DECLINE;
      }
    if (!TRAILING.test(raw.slice(j))) throw DECLINE;
    return out;
  };

  /** The lines of a `|` or `>` block scalar under a key at indentation `n`, all at one deeper indentation. */
  const blockScalar = (header: RegExpExecArray, keyLine: Line, n: number): string => {
    const parts: string[] = [];
    let indent = -1;
    let row = keyLine.row + 1;
    for (; row < rows.length; row++) {
      const t = rows[row]!;
      if (t === "") {
        // Blank lines end it only when nothing of it follows; blank lines inside are declined.
        let q = row + 1;
        while (q < rows.length && rows[q] === "") q++;
        if (q < rows.length && lineIndent(rows[q]!) >= indent) throw DECLINE;
        break;
      }
      const ind = lineIndent(t);
      if (indent < 0) {
        if (ind <= n) throw DECLINE; // empty
        indent = ind;
      }
      if (ind < indent) break;
      // Deeper lines keep their breaks when folded, and trailing spaces are content: both declined.
      if (ind > indent || ind === t.length || t.endsWith(" ")) throw DECLINE;
      parts.push(t.slice(ind));
    }
    if (indent < 0) throw DECLINE;
    while (i < lines.length && lines[i]!.row < row) i++;
    const body = header[1] === "|" ? parts.join("\n") : parts.join(" ");
    return header[2] === "-" ? body : `${body}\n`;
  };

  const sequence = (first: Line, path: string[]): unknown[] => {
    const n = first.indent;
    const out: unknown[] = [];
    for (let line = first; ; ) {
      if (line.text === "-") throw DECLINE;
      let j = 2;
      while (line.text.charCodeAt(j) === 0x20) j++;
      const rest: Line = {
        indent: line.indent + j,
        text: line.text.slice(j),
        start: line.start + j,
        row: line.row,
      };
      const itemPath = [...path, String(out.length)];
      if (isItem(rest.text) || KEY.test(rest.text)) {
        lines[i] = rest;
        out.push(node(rest, itemPath));
      } else {
        out.push(inline(rest.text, rest.start, itemPath));
        i++;
      }
      const next = lines[i];
      if (!next || next.indent < n) return out;
      if (next.indent > n) throw DECLINE;
      // A key at this indentation: the sequence was its parent key's value, written at the key's indentation.
      if (!isItem(next.text)) return out;
      line = next;
    }
  };

  const mapping = (first: Line, path: string[]): Record<string, unknown> => {
    const n = first.indent;
    const out: Record<string, unknown> = {};
    for (let line = first; ; ) {
      const m = KEY.exec(line.text);
      if (!m) throw DECLINE;
      const name = m[1]!;
      const raw = m[2];
      if (Object.hasOwn(out, name) || name === "__proto__") throw DECLINE;
      const childPath = [...path, name];
      i++;
      const header = raw === undefined ? null : BLOCK_SCALAR.exec(raw);
      if (raw === undefined || raw.startsWith("#")) {
        // `key:` with its value on the next lines: deeper, or a sequence at this indentation.
        const next = lines[i];
        if (!next || !(next.indent > n || (next.indent === n && isItem(next.text)))) throw DECLINE;
        out[name] = node(next, childPath, line.start);
      } else if (header) {
        record(childPath, line.start + line.text.length - raw.length, line.start);
        out[name] = blockScalar(header, line, n);
      } else {
        out[name] = inline(raw, line.start + line.text.length - raw.length, childPath, line.start);
      }
      const next = lines[i];
      if (!next || next.indent < n) return out;
      // Deeper: a continuation line of a multi-line scalar, or bad indentation; `- ` here: a syntax error.
      if (next.indent > n || isItem(next.text)) throw DECLINE;
      line = next;
    }
  };

  try {
    const root = node(lines[0]!, []);
    if (i !== lines.length) return undefined;
    return { value: root, index: { value, key } };
  } catch (e) {
    if (e === DECLINE) return undefined;
    throw e;
  }
}

function lineIndent(t: string): number {
  let n = 0;
  while (t.charCodeAt(n) === 0x20) n++;
  return n;
}

/** Characters that end a plain scalar inside a flow sequence (or make it one this parser declines). */
const FLOW_STOP = new Set([",", "[", "]", "{", "}", "#", ":"]);

/** A one-line block-context scalar with an optional trailing comment. */
function scalar(raw: string): unknown {
  if (raw[0] === '"' || raw[0] === "'") {
    const [v, end] = quoted(raw, 0);
    if (!TRAILING.test(raw.slice(end))) throw DECLINE;
    return v;
  }
  const hash = raw.indexOf(" #");
  return plain(hash < 0 ? raw : raw.slice(0, hash).replace(/ +$/, ""));
}

/** A quoted scalar opening at `raw[start]` and closing on the same line: its value and the index after it. */
function quoted(raw: string, start: number): [string, number] {
  let j = start + 1;
  if (raw[start] === "'") {
    for (; j < raw.length; j++)
      if (raw[j] === "'") {
        if (raw[j + 1] !== "'") break;
        j++;
      }
    if (j >= raw.length) throw DECLINE;
    return [raw.slice(start + 1, j).replace(/''/g, "'"), j + 1];
  }
  for (; j < raw.length; j++) {
    const ch = raw[j];
    if (ch === "\\") j++;
    else if (ch === '"') break;
  }
  if (j >= raw.length) throw DECLINE;
  // JSON's escapes are YAML's, with the same meaning; YAML's others (`\x`, `\0`, `\e`, …) make JSON throw.
  try {
    return [JSON.parse(raw.slice(start, j + 1)) as string, j + 1];
  } catch {
    throw DECLINE;
  }
}

/** A plain scalar as the YAML 1.2 core schema reads it: a string, a decimal number, a boolean or null. */
function plain(v: string): unknown {
  if (/^[A-Za-z]/.test(v)) {
    if (/: |:$/.test(v)) throw DECLINE;
    if (v === "true" || v === "True" || v === "TRUE") return true;
    if (v === "false" || v === "False" || v === "FALSE") return false;
    if (v === "null" || v === "Null" || v === "NULL") return null;
    return v;
  }
  if (v === "~") return null;
  if (NUMBER.test(v)) return Number(v);
  throw DECLINE;
}

/** What may follow a closing quote or bracket on its line: nothing, or a comment. */
const TRAILING = /^(?: +#.*)?$/;
