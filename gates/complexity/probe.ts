/**
 * complexity, child side: builds the inputs (a built-in builder, or a builder the module exports), counts
 * operations per size with the preloaded instruments and times calls per size. It returns the points; the
 * slopes and the verdict are computed in the parent (gates/complexity/growth.ts, index.ts).
 */
import { describeThrown } from "../../src/sandbox/tagged.js";
import type { GateCollector, GateInput, ProbeRunner } from "../types.js";
import { BUILDERS, type Builder } from "./builders.js";
import { takeInstruments } from "./instruments.js";
import { measureCounts, measureWall } from "./measure.js";

/** Taken when this file loads, before the module does: no one else can attach a counter. */
const instruments = takeInstruments();

export type ComplexityProbe =
  | { kind: "smoke"; builder: string; n: number; seed: number }
  | { kind: "counts"; builder: string; sizes: number[]; seed: number }
  | { kind: "wall"; builder: string; sizes: number[]; seed: number; rounds: number };

export type ComplexityObservation =
  | { ok: true }
  | { points: { n: number; ops: number; capped: boolean }[] }
  | { wall: { n: number; ms: number; batch: number }[] }
  | { threw: string }
  | { unusable: string };

type Fn = (...args: unknown[]) => unknown;

function builderOf(name: string, input: Extract<GateInput, { kind: "export" }>): Builder | string {
  const builtin = BUILDERS[name];
  if (builtin) return builtin;
  let custom: unknown;
  try {
    custom = input.module[name] ?? (input.module.default as Record<string, unknown> | undefined)?.[name];
  } catch (err) {
    return `reading export '${name}' threw: ${describeThrown(err)}`;
  }
  if (typeof custom !== "function")
    return `option 'input': '${name}' is neither a builder (${Object.keys(BUILDERS).join(", ")}) nor a function export of the module`;
  return (n, seed) => {
    const args = (custom as (n: number, seed: number) => unknown)(n, seed);
    return Array.isArray(args) ? args : [args];
  };
}

export const collector: GateCollector = {
  id: "complexity",
  start(input: GateInput): ProbeRunner {
    return (raw): ComplexityObservation => {
      const probe = raw as ComplexityProbe;
      if (input.kind !== "export" || typeof input.value !== "function")
        return { unusable: `export '${input.kind === "export" ? input.name : "?"}' is not a function` };
      if (!instruments) return { unusable: "the counting instruments were not preloaded" };
      const build = builderOf(probe.builder, input);
      if (typeof build === "string") return { unusable: build };
      const fn = input.value as Fn;
      try {
        if (probe.kind === "smoke") {
          fn(...build(probe.n, probe.seed));
          return { ok: true };
        }
        if (probe.kind === "counts")
          return { points: measureCounts(instruments, fn, build, probe.sizes, probe.seed) };
        return { wall: measureWall(fn, build, probe.sizes, probe.seed, probe.rounds) };
      } catch (err) {
        return { threw: describeThrown(err) };
      }
    };
  },
};
