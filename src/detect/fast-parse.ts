/**
 * Fast paths for the two shapes that make up almost every file discovery reads, so a repository of 10,000
 * skills is not 10,000 runs of the full YAML composer (about 130 µs per small file): valid JSON (suite files)
 * and plain block YAML of one-line scalars (SKILL.md frontmatter, suite cases). Both only ever answer for input they fully
 * understand; anything else returns undefined and goes through `yaml`. `test/detect/fast-parse.test.ts` checks
 * values and positions against `yaml` on generated input.
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
/** Words the YAML 1.2 core schema reads as null or booleans. */
const NOT_A_STRING = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE)$/;
/** Numbers every reader agrees on (at most 15 digits, so `Number` and YAML give the same double). */
const NUMBER = /^-?(?:0|[1-9][0-9]{0,14})(?:\.[0-9]{1,15})?$/;

/** One line that holds something: its indentation, its text without indentation or trailing spaces, where. */
interface Line {
  indent: number;
  text: string;
  start: number;
}

/** Thrown inside the block parser for anything outside its subset; the caller then uses `yaml`. */
const DECLINE = Symbol("decline");

/**
 * Block YAML of the shape suite cases and frontmatter are written in, as YAML would read it: mappings with
 * plain keys, block sequences (also at the parent key's indentation, and `- key: value` items), and one-line
 * scalars (plain strings, quoted strings, decimal numbers), with comment lines and trailing comments.
 * Undefined for anything else: empty (null) values, block scalars (`|`, `>`), flow collections, anchors, tags,
 * multi-line scalars, booleans, duplicate keys, tabs, document markers, a syntax error of any kind.
 */
export function parseBlockYaml(text: string): { value: unknown; index: PositionIndex } | undefined {
  const lines: Line[] = [];
  let offset = 0;
  for (const raw of text.split("\n")) {
    const start = offset;
    offset += raw.length + 1;
    // Printable characters only: no tabs, CR, BOM or Unicode line separators (which JS trims and YAML keeps).
    if (!PRINTABLE.test(raw)) return undefined;
    let end = raw.length;
    while (end > 0 && raw.charCodeAt(end - 1) === 0x20) end--;
    let indent = 0;
    while (indent < end && raw.charCodeAt(indent) === 0x20) indent++;
    if (indent === end || raw[indent] === "#") continue;
    lines.push({ indent, text: raw.slice(indent, end), start: start + indent });
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

  const sequence = (first: Line, path: string[]): unknown[] => {
    const n = first.indent;
    const out: unknown[] = [];
    for (let line = first; ; ) {
      if (line.text === "-") throw DECLINE;
      let j = 2;
      while (line.text.charCodeAt(j) === 0x20) j++;
      const rest: Line = { indent: line.indent + j, text: line.text.slice(j), start: line.start + j };
      const itemPath = [...path, String(out.length)];
      if (isItem(rest.text) || KEY.test(rest.text)) {
        lines[i] = rest;
        out.push(node(rest, itemPath));
      } else {
        record(itemPath, rest.start);
        out.push(scalar(rest.text));
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
      if (raw === undefined || raw.startsWith("#")) {
        // `key:` with its value on the next lines: deeper, or a sequence at this indentation.
        const next = lines[i];
        if (!next || !(next.indent > n || (next.indent === n && isItem(next.text)))) throw DECLINE;
        out[name] = node(next, childPath, line.start);
      } else {
        record(childPath, line.start + line.text.length - raw.length, line.start);
        out[name] = scalar(raw);
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

/** A one-line scalar with an optional trailing comment; declines what it does not read exactly as YAML. */
function scalar(raw: string): string | number {
  const c = raw[0];
  if (c === '"') {
    let j = 1;
    for (; j < raw.length; j++) {
      const ch = raw[j];
      if (ch === "\\") j++;
      else if (ch === '"') break;
    }
    if (j >= raw.length || !TRAILING.test(raw.slice(j + 1))) throw DECLINE;
    // JSON's escapes are YAML's, with the same meaning; YAML's others (`\x`, `\0`, `\e`, …) make JSON throw.
    try {
      return JSON.parse(raw.slice(0, j + 1)) as string;
    } catch {
      throw DECLINE;
    }
  }
  if (c === "'") {
    let j = 1;
    for (; j < raw.length; j++)
      if (raw[j] === "'") {
        if (raw[j + 1] !== "'") break;
        j++;
      }
    if (j >= raw.length || !TRAILING.test(raw.slice(j + 1))) throw DECLINE;
    return raw.slice(1, j).replace(/''/g, "'");
  }
  const hash = raw.indexOf(" #");
  const v = hash < 0 ? raw : raw.slice(0, hash).replace(/ +$/, "");
  if (/^[A-Za-z]/.test(v) && !NOT_A_STRING.test(v) && !/: |:$/.test(v)) return v;
  if (NUMBER.test(v)) return Number(v);
  throw DECLINE;
}

/** What may follow a closing quote on its line: nothing, or a comment. */
const TRAILING = /^(?: +#.*)?$/;
