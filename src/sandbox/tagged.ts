/**
 * Values carried between the parent and the sandbox child as tagged JSON: JSON's own types stay as they are,
 * a plain object without a `$` key stays a plain object, and everything JSON cannot say (undefined, NaN,
 * ±Infinity, −0, BigInt, functions, errors, objects of a class or with a `$` key, values we could not read)
 * becomes an object whose `$` key is its tag. So a module cannot pass an object off as a tag: its objects
 * with a `$` key are always written in the tagged `object` form. `encodeValue` runs in the child on what the
 * module returned (bounded: a cyclic, huge or hostile value is cut, never followed forever) and in the parent
 * on probe inputs; `decodeValue` (parent) and `decodeInput` (child) read them back.
 */

export type Tagged = null | boolean | number | string | Tagged[] | TaggedSpecial | PlainObject;
/** A plain object without a `$` key, its values tagged. */
export interface PlainObject {
  [key: string]: Tagged;
}

export type TaggedSpecial =
  | { $: "undefined" }
  | { $: "number"; v: "NaN" | "Infinity" | "-Infinity" | "-0" }
  | { $: "bigint"; v: string }
  | { $: "symbol"; v: string }
  | { $: "function"; name: string }
  | { $: "error"; name: string; message: string }
  /** An object: own enumerable string keys in order; `c` names its constructor unless plain. */
  | { $: "object"; e: [string, Tagged][]; c?: string }
  /** Not followed: too deep, too big, seen before (a cycle), or reading it threw. */
  | { $: "cut"; why: "depth" | "size" | "cycle" | "unreadable"; detail?: string };

/** Limits of one encoded value. */
const ENCODE_LIMITS = {
  depth: 12,
  /** Values (nodes) per encoded value. */
  nodes: 250_000,
  /** Characters kept of one string; longer ones are cut. */
  stringChars: 20_000,
} as const;

/** Describes a thrown value without trusting it (a getter on `message` may throw too). */
export function describeThrown(err: unknown): string {
  try {
    if (err instanceof Error) return `${String(err.name)}: ${String(err.message)}`;
    return `non-Error value thrown: ${String(err)}`;
  } catch {
    return "an unprintable value was thrown";
  }
}

/**
 * `o[k] = v` as an own property, also for keys an assignment would not create: `__proto__`, and any name
 * Object.prototype has (frozen in the child, so assigning `toString` or `valueOf` would fail).
 */
function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k in Object.prototype)
    Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  else o[k] = v;
}

function constructorName(o: object): string | undefined {
  const proto = Object.getPrototypeOf(o);
  if (proto === null || proto === Object.prototype) return undefined;
  const ctor = Object.getOwnPropertyDescriptor(proto, "constructor")?.value;
  const name = typeof ctor === "function" ? ctor.name : "";
  return typeof name === "string" && name ? name : "anonymous";
}

/**
 * Encodes an untrusted value. Reading it may run the module's code (getters, Proxy traps): whatever that
 * code returns is what we record, and a throw becomes a `cut`/`unreadable` node.
 */
export function encodeValue(value: unknown): Tagged {
  let nodes = 0;
  const onPath = new Set<object>();
  const enc = (v: unknown, depth: number): Tagged => {
    if (++nodes > ENCODE_LIMITS.nodes) return { $: "cut", why: "size" };
    switch (typeof v) {
      case "undefined":
        return { $: "undefined" };
      case "boolean":
        return v;
      case "number":
        if (Number.isNaN(v)) return { $: "number", v: "NaN" };
        if (v === Number.POSITIVE_INFINITY) return { $: "number", v: "Infinity" };
        if (v === Number.NEGATIVE_INFINITY) return { $: "number", v: "-Infinity" };
        if (v === 0 && 1 / v < 0) return { $: "number", v: "-0" };
        return v;
      case "string":
        return v.length > ENCODE_LIMITS.stringChars ? { $: "cut", why: "size", detail: "string" } : v;
      case "bigint":
        return { $: "bigint", v: v.toString() };
      case "symbol":
        return { $: "symbol", v: v.description ?? "" };
      case "function": {
        let name = "";
        try {
          const n = (v as { name?: unknown }).name;
          name = typeof n === "string" ? n : "";
        } catch {
          // a hostile `name` getter: nameless
        }
        return { $: "function", name };
      }
    }
    if (v === null) return null;
    const o = v as object;
    if (depth >= ENCODE_LIMITS.depth) return { $: "cut", why: "depth" };
    if (onPath.has(o)) return { $: "cut", why: "cycle" };
    onPath.add(o);
    try {
      if (Array.isArray(o)) {
        const length = (o as unknown[]).length;
        if (typeof length !== "number" || length > ENCODE_LIMITS.nodes) return { $: "cut", why: "size" };
        const items: Tagged[] = [];
        for (let i = 0; i < length; i++) {
          items.push(enc((o as unknown[])[i], depth + 1));
          if (nodes > ENCODE_LIMITS.nodes) break;
        }
        return items;
      }
      if (o instanceof Error) {
        const d = describeThrown(o);
        const cut = d.indexOf(": ");
        return { $: "error", name: d.slice(0, cut), message: d.slice(cut + 2) };
      }
      const c = Object.getPrototypeOf(o) === Object.prototype ? undefined : constructorName(o);
      const keys = Object.keys(o);
      if (c === undefined && !keys.includes("$")) {
        const plain: PlainObject = {};
        for (const k of keys) {
          setOwn(plain, k, enc((o as Record<string, unknown>)[k], depth + 1));
          if (nodes > ENCODE_LIMITS.nodes) break;
        }
        return plain;
      }
      const e: [string, Tagged][] = [];
      for (const k of keys) {
        e.push([k, enc((o as Record<string, unknown>)[k], depth + 1)]);
        if (nodes > ENCODE_LIMITS.nodes) break;
      }
      return c === undefined ? { $: "object", e } : { $: "object", e, c };
    } catch (err) {
      return { $: "cut", why: "unreadable", detail: describeThrown(err) };
    } finally {
      onPath.delete(o);
    }
  };
  return enc(value, 0);
}

/**
 * `JSON.stringify` replacer for trusted values the parent sends (probe inputs): the numbers JSON cannot say
 * and `undefined` become their tags, in the same pass that writes the JSON (no tagged copy is built).
 * Inputs never hold an object with a `$` key (our generators make none), so plain objects stay plain.
 */
function inputReplacer(_key: string, v: unknown): unknown {
  if (typeof v === "number") {
    if (Number.isNaN(v)) return { $: "number", v: "NaN" };
    if (v === Number.POSITIVE_INFINITY) return { $: "number", v: "Infinity" };
    if (v === Number.NEGATIVE_INFINITY) return { $: "number", v: "-Infinity" };
    if (Object.is(v, -0)) return { $: "number", v: "-0" };
    return v;
  }
  if (v === undefined) return { $: "undefined" };
  if (typeof v === "bigint") return { $: "bigint", v: v.toString() };
  return v;
}

/** JSON of a trusted value for the child (see `inputReplacer`). */
export function inputJson(v: unknown): string {
  return JSON.stringify(v, inputReplacer);
}

/** What a decoded function is in the parent: its name only. */
export class FunctionValue {
  constructor(readonly name: string) {}
}
/** What a decoded error is in the parent. */
export class ErrorValue {
  constructor(
    readonly name: string,
    readonly message: string,
  ) {}
}
/** A part of the value the child did not follow (depth, size, cycle, a throwing getter). */
export class CutValue {
  constructor(
    readonly why: string,
    readonly detail?: string,
  ) {}
}
/** A symbol the module returned (by description). */
export class SymbolValue {
  constructor(readonly description: string) {}
}

/**
 * Back to JS values for the judges: objects become null-prototype objects (a key `__proto__` is just a key),
 * with the constructor name of a non-plain object under the `CONSTRUCTOR` symbol.
 */
export const CONSTRUCTOR = Symbol("constructor name");

function isSpecial(t: object): t is TaggedSpecial {
  return Object.hasOwn(t, "$");
}

export function decodeValue(t: Tagged): unknown {
  if (t === null || typeof t !== "object") return t;
  if (Array.isArray(t)) return t.map(decodeValue);
  if (!isSpecial(t)) {
    const o: Record<string, unknown> = Object.create(null);
    for (const k of Object.keys(t)) o[k] = decodeValue(t[k] as Tagged);
    return o;
  }
  switch (t.$) {
    case "undefined":
      return undefined;
    case "number":
      return t.v === "-0" ? -0 : Number(t.v);
    case "bigint":
      return BigInt(t.v);
    case "symbol":
      return new SymbolValue(t.v);
    case "function":
      return new FunctionValue(t.name);
    case "error":
      return new ErrorValue(t.name, t.message);
    case "cut":
      return new CutValue(t.why, t.detail);
    case "object": {
      const o: Record<string | symbol, unknown> = Object.create(null);
      for (const [k, v] of t.e) o[k] = decodeValue(v);
      if (t.c !== undefined) o[CONSTRUCTOR] = t.c;
      return o;
    }
  }
}

const NUMBER_TAGS = new Set(["NaN", "Infinity", "-Infinity", "-0"]);
const CUT_REASONS = new Set(["depth", "size", "cycle", "unreadable"]);
const BIGINT = /^-?[0-9]+$/;

function onlyKeys(o: object, required: readonly string[], optional: readonly string[] = []): boolean {
  const keys = Object.keys(o);
  return (
    required.every((k) => Object.hasOwn(o, k)) &&
    keys.every((k) => k === "$" || required.includes(k) || optional.includes(k))
  );
}

/**
 * Whether a value received from the child is well-formed tagged data (any depth; iterative, so a deep or
 * huge answer cannot overflow the stack). The gates' observation schemas use it as the ajv keyword
 * `tagged` (see `TAGGED`): a recursive JSON Schema of the same rule took most of the parent's time on
 * megabyte answers.
 */
export function isTagged(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v === "boolean" || typeof v === "string") continue;
    if (typeof v === "number") {
      if (!Number.isFinite(v)) return false;
      continue;
    }
    if (typeof v !== "object") return false;
    if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
      continue;
    }
    const o = v as Record<string, unknown>;
    if (!Object.hasOwn(o, "$")) {
      for (const k of Object.keys(o)) stack.push(o[k]);
      continue;
    }
    const str = (k: string) => typeof o[k] === "string";
    switch (o.$) {
      case "undefined":
        if (!onlyKeys(o, [])) return false;
        break;
      case "number":
        if (!onlyKeys(o, ["v"]) || !NUMBER_TAGS.has(o.v as string)) return false;
        break;
      case "bigint":
        if (!onlyKeys(o, ["v"]) || !str("v") || !BIGINT.test(o.v as string)) return false;
        break;
      case "symbol":
        if (!onlyKeys(o, ["v"]) || !str("v")) return false;
        break;
      case "function":
        if (!onlyKeys(o, ["name"]) || !str("name")) return false;
        break;
      case "error":
        if (!onlyKeys(o, ["name", "message"]) || !str("name") || !str("message")) return false;
        break;
      case "cut":
        if (!onlyKeys(o, ["why"], ["detail"]) || !CUT_REASONS.has(o.why as string)) return false;
        if (o.detail !== undefined && !str("detail")) return false;
        break;
      case "object": {
        if (!onlyKeys(o, ["e"], ["c"]) || !Array.isArray(o.e)) return false;
        if (o.c !== undefined && !str("c")) return false;
        for (const entry of o.e as unknown[]) {
          if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== "string") return false;
          stack.push(entry[1]);
        }
        break;
      }
      default:
        return false;
    }
  }
  return true;
}

/** In an observation schema: "this is a tagged value" (the `tagged` keyword, added where schemas compile). */
export const TAGGED = { tagged: true } as const;

/**
 * Back to JS values for the module, in the child: trusted probe inputs the parent encoded (NaN, −0 and
 * undefined survive the trip). Objects are ordinary objects, built with `defineProperty` so a key named
 * `__proto__` stays a key.
 */
export function decodeInput(t: Tagged): unknown {
  if (t === null || typeof t !== "object") return t;
  if (Array.isArray(t)) return t.map(decodeInput);
  if (!isSpecial(t)) {
    const o: Record<string, unknown> = {};
    for (const k of Object.keys(t)) setOwn(o, k, decodeInput(t[k] as Tagged));
    return o;
  }
  switch (t.$) {
    case "undefined":
      return undefined;
    case "number":
      return t.v === "-0" ? -0 : Number(t.v);
    case "bigint":
      return BigInt(t.v);
    case "object": {
      const o: Record<string, unknown> = {};
      for (const [k, v] of t.e)
        Object.defineProperty(o, k, {
          value: decodeInput(v),
          writable: true,
          enumerable: true,
          configurable: true,
        });
      return o;
    }
    default:
      throw new Error(`a probe input cannot hold a ${t.$}`);
  }
}
