/**
 * Gate options (`--options JSON`, a `gate` assertion's `options`, `.skillgate.yml`'s gate options): one JSON
 * Schema per gate, unknown keys included, and the few rules a schema cannot say (min ≤ max, distinct sizes).
 * `validateGateOptions` returns located problems (a JSON Pointer into the options and a message), so a
 * caller can attach its own `file:line`; nothing runs while a problem remains (`skillgate gate` exits 2).
 */
import { Ajv, type ErrorObject } from "ajv";
import { didYouMean } from "../src/util/edit-distance.js";
import type { GateId } from "./ids.js";

interface GateOptionProblem {
  /** JSON Pointer into the options object (`""` for the object itself, `/domain/0/min`). */
  path: string;
  message: string;
}

/** Most property runs a gate accepts (each run is a probe of the module). */
const MAX_RUNS = 100_000;
/** Largest input size the complexity gate builds. */
const MAX_COMPLEXITY_SIZE = 1_000_000;

const runs = {
  type: "integer",
  minimum: 1,
  maximum: MAX_RUNS,
  description: "property runs (random cases) per invariant; default 500",
};
const invalid = {
  enum: ["throw", "throw-or-null"],
  description: "how invalid input must be refused: throw (default), or throw or return null",
};

/** The JSON Schema of each gate's options object. */
export const GATE_OPTION_SCHEMAS: Readonly<Record<GateId, Record<string, unknown>>> = {
  boundary: {
    type: "object",
    additionalProperties: false,
    properties: {
      domain: {
        type: "array",
        minItems: 1,
        items: {
          type: "object",
          additionalProperties: false,
          properties: {
            min: { type: "number" },
            max: { type: "number" },
            integer: { type: "boolean" },
          },
        },
      },
      invalid,
      runs,
    },
  },
  conservation: {
    type: "object",
    additionalProperties: false,
    properties: { mode: { enum: ["count", "weights"] }, invalid, runs },
  },
  contrast: {
    type: "object",
    additionalProperties: false,
    properties: { level: { enum: ["AA", "AAA"] } },
  },
  queue: { type: "object", additionalProperties: false, properties: { runs } },
  "tenant-isolation": { type: "object", additionalProperties: false, properties: { runs } },
  complexity: {
    type: "object",
    additionalProperties: false,
    properties: {
      input: { type: "string", minLength: 1 },
      maxClass: { enum: ["linear", "linearithmic", "quadratic"] },
      sizes: {
        type: "array",
        minItems: 3,
        uniqueItems: true,
        items: { type: "integer", minimum: 1, maximum: MAX_COMPLEXITY_SIZE },
      },
    },
  },
  analytics: {
    type: "object",
    additionalProperties: false,
    properties: { percentile: { enum: ["nearest-rank", "linear"] }, runs },
  },
  leakage: {
    type: "object",
    additionalProperties: false,
    properties: { mode: { enum: ["group", "temporal"] }, runs },
  },
};

const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true });
const compiled = new Map<GateId, ReturnType<typeof ajv.compile>>();

/** The schema node at a JSON Pointer into the options (for the keys allowed there). */
function schemaAt(schema: Record<string, unknown>, schemaPath: string): Record<string, unknown> | undefined {
  let node: unknown = schema;
  for (const part of schemaPath.replace(/^#\//, "").split("/").slice(0, -1)) {
    if (!part) continue;
    node = (node as Record<string, unknown> | undefined)?.[part];
  }
  return node as Record<string, unknown> | undefined;
}

function describe(gate: GateId, e: ErrorObject): GateOptionProblem {
  const path = e.instancePath;
  switch (e.keyword) {
    case "additionalProperties": {
      const key = String((e.params as { additionalProperty: string }).additionalProperty);
      const at = schemaAt(GATE_OPTION_SCHEMAS[gate], e.schemaPath);
      const known = Object.keys((at?.properties as Record<string, unknown> | undefined) ?? {});
      // Close to the known name, by its length (a long option may be further off).
      const hint = didYouMean(key, known, { limitBy: "suggestion" });
      return {
        path: `${path}/${key}`,
        message: `unknown option '${key}' for gate ${gate}${hint ? ` (did you mean '${hint}'?)` : ""}; known: ${known.join(", ") || "none"}`,
      };
    }
    case "enum":
      return {
        path,
        message: `must be one of ${((e.params as { allowedValues: unknown[] }).allowedValues ?? []).map((v) => JSON.stringify(v)).join(", ")}`,
      };
    default:
      return { path, message: e.message ?? "is invalid" };
  }
}

/** Rules beyond the schema, on options the schema accepted. */
function semanticProblems(gate: GateId, options: Record<string, unknown>): GateOptionProblem[] {
  const problems: GateOptionProblem[] = [];
  if (gate === "boundary" && Array.isArray(options.domain)) {
    options.domain.forEach((d: { min?: number; max?: number; integer?: boolean }, i) => {
      if (d.min !== undefined && d.max !== undefined && d.min > d.max)
        problems.push({ path: `/domain/${i}`, message: `min ${d.min} is above max ${d.max}` });
      if (d.integer)
        for (const k of ["min", "max"] as const)
          if (d[k] !== undefined && !Number.isSafeInteger(d[k]))
            problems.push({
              path: `/domain/${i}/${k}`,
              message: "an integer domain needs safe-integer bounds",
            });
    });
  }
  return problems;
}

/** Every problem of `options` for gate `gate`; empty when they are valid. */
export function validateGateOptions(gate: GateId, options: unknown): GateOptionProblem[] {
  if (options === undefined) return [];
  if (options === null || typeof options !== "object" || Array.isArray(options))
    return [{ path: "", message: "gate options must be an object" }];
  let validate = compiled.get(gate);
  if (!validate) {
    validate = ajv.compile(GATE_OPTION_SCHEMAS[gate]);
    compiled.set(gate, validate);
  }
  if (!validate(options)) return (validate.errors ?? []).map((e) => describe(gate, e));
  return semanticProblems(gate, options as Record<string, unknown>);
}
