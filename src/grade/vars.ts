/**
 * `$placeholders` (values filled from `vars` or the suite's oracle at evaluation time) and `condition`
 * expressions. A placeholder that names no variable is an error, never an empty string.
 */
import { getPath } from "./extract.js";

/** `$name` or `$name.path[0]`; `$$` is a literal `$`. A `$` not followed by a letter or `_` is literal (regex ends). */
const PLACEHOLDER = /\$\$|\$([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+|\[\d+\])*)/g;

export class PlaceholderError extends Error {
  constructor(readonly names: string[]) {
    super(`unresolved placeholder${names.length > 1 ? "s" : ""} ${names.map((n) => `$${n}`).join(", ")}`);
    this.name = "PlaceholderError";
  }
}

function lookupVar(vars: Record<string, unknown>, ref: string): { ok: boolean; value?: unknown } {
  const dot = ref.search(/[.[]/);
  const head = dot < 0 ? ref : ref.slice(0, dot);
  if (!Object.hasOwn(vars, head)) return { ok: false };
  if (dot < 0) return { ok: true, value: vars[head] };
  const got = getPath(vars[head], ref.slice(dot));
  return got.ok ? { ok: true, value: got.value } : { ok: false };
}

/**
 * Resolves placeholders deeply in `value`. A string that is exactly one placeholder takes the variable's value
 * with its type (a list stays a list); placeholders inside longer strings are interpolated as text.
 * Throws `PlaceholderError` naming every unresolved placeholder.
 */
export function resolvePlaceholders<T>(value: T, vars: Record<string, unknown>): T {
  const missing = new Set<string>();
  const out = walk(value, vars, missing);
  if (missing.size > 0) throw new PlaceholderError([...missing]);
  return out as T;
}

function walk(value: unknown, vars: Record<string, unknown>, missing: Set<string>): unknown {
  if (typeof value === "string") return resolveString(value, vars, missing);
  if (Array.isArray(value)) return value.map((v) => walk(v, vars, missing));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = walk(v, vars, missing);
    return out;
  }
  return value;
}

function resolveString(s: string, vars: Record<string, unknown>, missing: Set<string>): unknown {
  const whole = /^\$([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+|\[\d+\])*)$/.exec(s);
  if (whole) {
    const got = lookupVar(vars, whole[1]!);
    if (!got.ok) missing.add(whole[1]!);
    return got.value;
  }
  return s.replace(PLACEHOLDER, (m, ref: string | undefined) => {
    if (m === "$$") return "$";
    const got = lookupVar(vars, ref!);
    if (!got.ok) {
      missing.add(ref!);
      return m;
    }
    return typeof got.value === "string" ? got.value : JSON.stringify(got.value);
  });
}

/** Names of the placeholders used anywhere in `value` (for validation and reports). */
export function placeholderNames(value: unknown): string[] {
  const names = new Set<string>();
  const visit = (v: unknown): void => {
    if (typeof v === "string") {
      for (const m of v.matchAll(PLACEHOLDER)) if (m[1]) names.add(m[1].split(/[.[]/)[0]!);
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === "object") Object.values(v).forEach(visit);
  };
  visit(value);
  return [...names];
}

// ---- condition expressions -------------------------------------------------------------------------------
// Grammar: or := and ("||" and)* ; and := not ("&&" not)* ; not := "!" not | cmp ;
// cmp := atom (("=="|"!="|">="|"<="|">"|"<") atom)? ; atom := $var | number | "string" | 'string' |
// true | false | null | "(" or ")".

export class ConditionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConditionError";
  }
}

type Token = { kind: "op" | "var" | "lit"; text: string; value?: unknown };

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  const re =
    /\s*(?:(\|\||&&|==|!=|>=|<=|[!<>()])|\$([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+|\[\d+\])*)|(-?\d+(?:\.\d+)?)|"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|(true|false|null)\b)/y;
  let pos = 0;
  while (pos < src.length) {
    if (/^\s*$/.test(src.slice(pos))) break;
    re.lastIndex = pos;
    const m = re.exec(src);
    if (!m) throw new ConditionError(`cannot parse condition "${src}" at column ${pos + 1}`);
    pos = re.lastIndex;
    if (m[1]) tokens.push({ kind: "op", text: m[1] });
    else if (m[2]) tokens.push({ kind: "var", text: m[2] });
    else if (m[3] !== undefined) tokens.push({ kind: "lit", text: m[3], value: Number(m[3]) });
    else if (m[4] !== undefined) tokens.push({ kind: "lit", text: m[4], value: JSON.parse(`"${m[4]}"`) });
    else if (m[5] !== undefined)
      tokens.push({ kind: "lit", text: m[5], value: m[5].replace(/\\(.)/g, "$1") });
    else if (m[6]) tokens.push({ kind: "lit", text: m[6], value: JSON.parse(m[6]) });
  }
  return tokens;
}

/** The variables a `condition` reads (their first segment); a token it cannot read throws `ConditionError`. */
export function conditionVarNames(src: string): string[] {
  return [
    ...new Set(
      tokenize(src)
        .filter((t) => t.kind === "var")
        .map((t) => t.text.split(/[.[]/)[0]!),
    ),
  ];
}

/** Evaluates a `condition`. Unknown variables throw `PlaceholderError`; bad syntax throws `ConditionError`. */
export function evaluateCondition(src: string, vars: Record<string, unknown>): boolean {
  const tokens = tokenize(src);
  let i = 0;
  const peek = () => tokens[i];
  const eat = (text: string) => {
    if (peek()?.text === text && peek()?.kind === "op") {
      i++;
      return true;
    }
    return false;
  };
  const parseOr = (): unknown => {
    let v = parseAnd();
    while (eat("||")) {
      const r = parseAnd();
      v = truthy(v) || truthy(r);
    }
    return v;
  };
  const parseAnd = (): unknown => {
    let v = parseNot();
    while (eat("&&")) {
      const r = parseNot();
      v = truthy(v) && truthy(r);
    }
    return v;
  };
  const parseNot = (): unknown => (eat("!") ? !truthy(parseNot()) : parseCmp());
  const parseCmp = (): unknown => {
    const left = parseAtom();
    const t = peek();
    if (t?.kind === "op" && ["==", "!=", ">=", "<=", ">", "<"].includes(t.text)) {
      i++;
      return compare(left, t.text, parseAtom());
    }
    return left;
  };
  const parseAtom = (): unknown => {
    const t = tokens[i++];
    if (!t) throw new ConditionError(`condition "${src}" ends too early`);
    if (t.kind === "lit") return t.value;
    if (t.kind === "var") {
      const got = lookupVar(vars, t.text);
      if (!got.ok) throw new PlaceholderError([t.text]);
      return got.value;
    }
    if (t.text === "(") {
      const v = parseOr();
      if (!eat(")")) throw new ConditionError(`condition "${src}": missing ")"`);
      return v;
    }
    throw new ConditionError(`condition "${src}": unexpected "${t.text}"`);
  };
  const result = parseOr();
  if (i < tokens.length) throw new ConditionError(`condition "${src}": unexpected "${tokens[i]!.text}"`);
  return truthy(result);
}

function truthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  return Boolean(v);
}

function compare(a: unknown, op: string, b: unknown): boolean {
  switch (op) {
    case "==":
      return looseEqual(a, b);
    case "!=":
      return !looseEqual(a, b);
    default: {
      const x = Number(a);
      const y = Number(b);
      if (Number.isNaN(x) || Number.isNaN(y))
        throw new ConditionError(`cannot compare ${show(a)} ${op} ${show(b)}`);
      return op === ">" ? x > y : op === "<" ? x < y : op === ">=" ? x >= y : x <= y;
    }
  }
}

/** Equality as a suite author means it: deep for JSON values, numeric when one side is a numeric string. */
export function looseEqual(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "string" && b.trim() !== "") return a === Number(b);
  if (typeof b === "number" && typeof a === "string" && a.trim() !== "") return b === Number(a);
  if (typeof a === "string" && typeof b === "string") return a.trim() === b.trim();
  return deepEqual(a, b);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

export function show(v: unknown, max = 200): string {
  const s = typeof v === "string" ? JSON.stringify(v) : v === undefined ? "nothing" : JSON.stringify(v);
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
