/**
 * Fast paths for the two shapes that make up almost every file discovery reads, so a repository of 10,000
 * skills is not 10,000 runs of the full YAML composer: valid JSON (suite files) and a flat YAML mapping of
 * plain one-line strings (the usual SKILL.md frontmatter). Both only ever answer for input they fully
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

/**
 * A flat mapping of keys to plain one-line strings (`name: x` lines, blank lines and `#` comment lines),
 * as YAML would read it; undefined for anything else (quotes, numbers, nesting, continuation lines, `: `
 * or ` #` inside a value, duplicate keys, tabs).
 */
export function parseFlatYaml(
  text: string,
): { value: Record<string, string>; index: PositionIndex } | undefined {
  const out: Record<string, string> = {};
  const value = new Map<string, number>();
  const key = new Map<string, number>();
  let offset = 0;
  let first = -1;
  for (const line of text.split("\n")) {
    const start = offset;
    offset += line.length + 1;
    // Printable characters only: no tabs, CR, BOM or Unicode line separators (which JS trims and YAML keeps).
    if (!PRINTABLE.test(line)) return undefined;
    const trimmed = line.replace(/ +$/, "");
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    const m = KEY.exec(trimmed);
    if (!m) return undefined;
    const [, name = "", raw] = m;
    if (raw === undefined || Object.hasOwn(out, name) || name === "__proto__") return undefined;
    const v = raw.replace(/ +$/, "");
    // A plain scalar that is a string: starts with a letter, holds no comment or mapping indicator.
    if (!/^[A-Za-z]/.test(v) || NOT_A_STRING.test(v) || /: | #|:$/.test(v)) return undefined;
    out[name] = v;
    if (first < 0) first = start;
    key.set(pathKey([name]), start);
    value.set(pathKey([name]), start + line.indexOf(raw, name.length + 1));
  }
  if (first < 0) return undefined;
  value.set(pathKey([]), first);
  return { value: out, index: { value, key } };
}
