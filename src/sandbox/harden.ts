/**
 * What the sandbox child does to its own realm before the untrusted module loads, so the module cannot change
 * what the child's code computes or read what the child keeps:
 * - every ECMAScript built-in reachable from the global object (and the hidden ones: %TypedArray%, the
 *   iterator, generator and async function prototypes) is frozen, deeply. Node's `--frozen-intrinsics` does
 *   the same, but it turns every method of every prototype into a getter/setter pair (so that assigning an
 *   own `push` still works): every `arr.push` then runs a getter, a typical leakage split took 123 → 182 ms
 *   (Node 20, 20,000 calls), and the flag itself costs ~48 ms of CPU per child start. Here only the
 *   properties code commonly assigns on its own objects stay assignable that way (`name`, `message`,
 *   `constructor`, `toString`…: `this.name = "MyError"` in an Error subclass must keep working);
 * - the global object's bindings (`JSON`, `Map`, `setTimeout`…), which no freeze covers, are pinned;
 * - Node's own classes our code uses (Buffer, TextEncoder, TextDecoder) are frozen;
 * - `v8.getHeapSnapshot`, `v8.queryObjects`, `v8.setFlagsFromString` (natives syntax) and the other
 *   introspection calls are replaced by functions that throw. The inspector, `process.binding`, addons and
 *   workers are refused by Node's permission model and `--no-addons`; they are disabled here too, for a Node
 *   started without them.
 */
import { createRequire } from "node:module";

/** Node globals our child code uses at run time: their getters are replaced by fixed values. */
const RESOLVED_GLOBALS = ["Buffer", "process", "TextEncoder", "TextDecoder"] as const;

/** Introspection and tuning functions of `node:v8` the module must not call. */
const DENIED_V8 = [
  "getHeapSnapshot",
  "writeHeapSnapshot",
  "setHeapSnapshotNearHeapLimit",
  "queryObjects",
  "setFlagsFromString",
  "takeCoverage",
  "stopCoverage",
  "startupSnapshot",
] as const;
const DENIED_PROCESS = ["binding", "_linkedBinding", "dlopen", "openStdin"] as const;

function denied(what: string): () => never {
  return () => {
    throw new Error(`${what} is not available in the skillgate sandbox`);
  };
}

function pin(target: object, key: PropertyKey, value: unknown): void {
  try {
    Object.defineProperty(target, key, { value, writable: false, configurable: false });
  } catch {
    // already pinned (non-configurable): nothing left to take away
  }
}

/** Freezes an object and, when it is a constructor, its prototype. */
function freezeClass(value: unknown): void {
  if ((typeof value !== "function" && typeof value !== "object") || value === null) return;
  Object.freeze(value);
  const proto = (value as { prototype?: unknown }).prototype;
  if (typeof proto === "object" && proto !== null) Object.freeze(proto);
}

/** The standard ECMAScript globals whose values (and everything reachable from them) are frozen. */
const INTRINSIC_GLOBALS = [
  "Object",
  "Function",
  "Array",
  "Number",
  "parseFloat",
  "parseInt",
  "Boolean",
  "String",
  "Symbol",
  "Date",
  "Promise",
  "RegExp",
  "Error",
  "AggregateError",
  "EvalError",
  "RangeError",
  "ReferenceError",
  "SyntaxError",
  "TypeError",
  "URIError",
  "SuppressedError",
  "JSON",
  "Math",
  "Intl",
  "ArrayBuffer",
  "SharedArrayBuffer",
  "Atomics",
  "DataView",
  "Uint8Array",
  "Int8Array",
  "Uint16Array",
  "Int16Array",
  "Uint32Array",
  "Int32Array",
  "Float16Array",
  "Float32Array",
  "Float64Array",
  "Uint8ClampedArray",
  "BigUint64Array",
  "BigInt64Array",
  "Map",
  "BigInt",
  "Set",
  "WeakMap",
  "WeakSet",
  "WeakRef",
  "FinalizationRegistry",
  "Proxy",
  "Reflect",
  "Iterator",
  "DisposableStack",
  "AsyncDisposableStack",
  "decodeURI",
  "decodeURIComponent",
  "encodeURI",
  "encodeURIComponent",
  "escape",
  "unescape",
  "eval",
  "isFinite",
  "isNaN",
  "WebAssembly",
  "queueMicrotask",
  "structuredClone",
  "setTimeout",
  "clearTimeout",
  "setInterval",
  "clearInterval",
  "setImmediate",
  "clearImmediate",
];

/** Built-ins no global names: reached through instances. */
function hiddenIntrinsics(): unknown[] {
  const proto = Object.getPrototypeOf;
  const gen = function* () {};
  const agen = async function* () {};
  return [
    proto(Int8Array),
    proto(gen),
    proto(agen),
    proto(async () => {}),
    proto(gen()),
    proto(agen()),
    proto([][Symbol.iterator]()),
    proto(new Map()[Symbol.iterator]()),
    proto(new Set()[Symbol.iterator]()),
    proto(""[Symbol.iterator]()),
    proto(/x/[Symbol.matchAll]("")),
    proto(Promise.resolve()),
  ];
}

/** Properties code assigns on its own objects: kept assignable on instances after the freeze. */
const OVERRIDABLE = new Set<PropertyKey>([
  "constructor",
  "name",
  "message",
  "stack",
  "cause",
  "toString",
  "toLocaleString",
  "valueOf",
  "toJSON",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  Symbol.toStringTag,
]);

/**
 * A frozen property that instances may still shadow by assignment (the "override mistake" of frozen
 * prototypes): a getter for reads, a setter that defines an own property on the object assigned to.
 */
function keepOverridable(obj: object, key: PropertyKey): void {
  const d = Object.getOwnPropertyDescriptor(obj, key);
  if (!d || !("value" in d) || !d.configurable) return;
  const value = d.value;
  Object.defineProperty(obj, key, {
    get: () => value,
    set(this: object, v: unknown) {
      if (this === obj) throw new TypeError(`Cannot assign to read only property '${String(key)}'`);
      Object.defineProperty(this, key, { value: v, writable: true, enumerable: true, configurable: true });
    },
    enumerable: d.enumerable,
    configurable: false,
  });
}

/** Deep-freezes the ECMAScript built-ins (see the file's comment for why not `--frozen-intrinsics`). */
function freezeIntrinsics(): void {
  const g = globalThis as Record<string, unknown>;
  const queue: unknown[] = [...INTRINSIC_GLOBALS.map((n) => g[n]), ...hiddenIntrinsics()];
  const seen = new Set<object>();
  while (queue.length > 0) {
    const v = queue.pop();
    if ((typeof v !== "object" && typeof v !== "function") || v === null || seen.has(v)) continue;
    seen.add(v);
    queue.push(Object.getPrototypeOf(v));
    for (const key of Reflect.ownKeys(v)) {
      const d = Object.getOwnPropertyDescriptor(v, key);
      if (!d) continue;
      if ("value" in d) queue.push(d.value);
      else queue.push(d.get, d.set);
      if (OVERRIDABLE.has(key) && (typeof v === "object" || v === Function.prototype))
        keepOverridable(v, key);
    }
    Object.freeze(v);
  }
}

export function hardenRealm(): void {
  freezeIntrinsics();
  const g = globalThis as Record<string, unknown>;
  for (const name of RESOLVED_GLOBALS) {
    const value = g[name];
    pin(g, name, value);
  }
  // The bindings of the built-ins (JSON, Map, Promise, setTimeout…): fixed. Only these names: reading the
  // descriptor of every global would load all of Node's lazy globals (fetch, WebSocket…: ~130 ms on Node 24).
  for (const name of INTRINSIC_GLOBALS) {
    const d = Object.getOwnPropertyDescriptor(g, name);
    if (d && "value" in d && d.configurable) pin(g, name, d.value);
  }
  for (const name of ["Buffer", "TextEncoder", "TextDecoder", "Atomics", "URL", "URLSearchParams"])
    freezeClass(g[name]);
  // Built-in modules resolve the same from anywhere.
  const req = createRequire("/");
  const v8 = req("node:v8") as Record<string, unknown>;
  for (const name of DENIED_V8) if (name in v8) pin(v8, name, denied(`v8.${name}`));
  for (const name of DENIED_PROCESS) if (name in process) pin(process, name, denied(`process.${name}`));
  try {
    const inspector = req("node:inspector") as Record<string, unknown>;
    for (const name of ["open", "Session", "url", "waitForDebugger"])
      pin(inspector, name, denied("the inspector"));
  } catch {
    // refused by the permission model already
  }
}
