/**
 * Facts about each gate kept outside its folder, small enough for the parent and the child alike: the V8 flags
 * of its sandbox child and the rough cost of a run. Each gate (`gates/<id>/index.ts`, exporting one `Gate`
 * whose `id` is the folder's name) runs in a child built for it alone (src/sandbox/child-build.mjs), so a
 * child evaluates only the code and dependencies (fast-check, sql.js, the parser, postcss) of the gate it
 * runs: child start-up is paid once per gate run.
 */
import type { GateChildSpec } from "../src/sandbox/types.js";
import type { GateId } from "./ids.js";

/**
 * V8 flags of a gate's child, set before the gate or the module loads (`v8.setFlagsFromString`, which
 * ignores a flag this Node does not know). The property gates run hundreds of short probes in a child that
 * lives for well under a second: V8's optimising tier (TurboFan) would spend more CPU compiling than it
 * saves, so their code stops at Maglev (Sparkplug where Node has no Maglev). Leakage is the exception since
 * its child only carries data (thousands of rows per run in and out, the judging is in the parent), where
 * TurboFan pays for itself. tenant-isolation also keeps
 * sql.js's WebAssembly on the baseline tier (Liftoff): optimising SQLite's huge interpreter loop costs
 * more than all its queries. Complexity times the module and keeps the full JIT, as its wall-clock rule
 * and the stability figures of `npm run bench` assume.
 */
const CHILD_V8_FLAGS: Readonly<Record<GateId, readonly string[]>> = {
  analytics: ["--max-opt=2"],
  boundary: ["--max-opt=2"],
  complexity: [],
  conservation: ["--max-opt=2"],
  contrast: ["--max-opt=2"],
  leakage: [],
  queue: ["--max-opt=2"],
  "tenant-isolation": ["--max-opt=2", "--liftoff-only"],
};

/**
 * Rough CPU cost of one run of each gate with its default options, in ms (child CPU of the good reference
 * modules, median of 12 runs on the 2-core bench machine; child start-up included). Only the order matters:
 * the sandbox starts waiting runs dearest first, so with more gate runs than cores the long ones do not finish
 * last. The bench's eight gates at once: 1,173 → 1,095 ms (median of 6 alternating rounds each).
 */
export const GATE_RUN_COST_MS: Readonly<Record<GateId, number>> = {
  analytics: 230,
  boundary: 180,
  complexity: 320,
  conservation: 150,
  contrast: 110,
  leakage: 260,
  queue: 240,
  "tenant-isolation": 270,
};

/** What each gate probes: the export names tried in order, and what messages call the function. */
interface GateContract {
  /** Export names tried in order when `--export` is not given (then the default export, then a lone function). */
  defaultExports: readonly string[];
  /** The contract's name for the probed function, used in messages when the user's export has no name. */
  placeholder: string;
  /**
   * Files this gate reads as text instead of loading as code (`.css`/`.html` for contrast): no Node child runs
   * (contrast's page is observed by Chromium confined in the sandbox instead).
   */
  fileInput?: RegExp;
}

export const GATE_CONTRACTS: Readonly<Record<GateId, GateContract>> = {
  analytics: { defaultExports: ["aggregate"], placeholder: "aggregate" },
  boundary: { defaultExports: [], placeholder: "fn" },
  complexity: { defaultExports: [], placeholder: "fn" },
  conservation: { defaultExports: ["allocate"], placeholder: "allocate" },
  contrast: { defaultExports: ["pairs"], placeholder: "pairs", fileInput: /\.(?:css|html?)$/i },
  leakage: { defaultExports: ["split"], placeholder: "split" },
  queue: { defaultExports: ["createQueue"], placeholder: "createQueue" },
  "tenant-isolation": { defaultExports: ["handler"], placeholder: "handler" },
};

/** Names a message may use for the probed function: an identifier, not `default` or `module.exports`. */
export function calleeName(gate: GateId, exportName: string | undefined, fnName: string | undefined): string {
  const ok = (n: string | undefined): n is string =>
    n !== undefined && n !== "default" && /^[A-Za-z_$][\w$]*$/.test(n);
  if (ok(exportName)) return exportName;
  if (ok(fnName)) return fnName;
  return GATE_CONTRACTS[gate].placeholder;
}

/**
 * Gates whose child preloads `gates/<id>/preload.ts` (built as `sandbox-child/preload-<id>.cjs`) with
 * `--require`: it runs before `--frozen-intrinsics` freezes the built-ins, so instruments on them (the
 * complexity gate's counters on Array and Map methods) are installed for good, and the module cannot remove them.
 */
const CHILD_PRELOAD: Readonly<Partial<Record<GateId, true>>> = { complexity: true };

/** What the sandbox needs to start gate `gate`'s child, handed to it as data (it imports nothing from gates/). */
export function childSpec(gate: GateId): GateChildSpec {
  return {
    v8Flags: CHILD_V8_FLAGS[gate],
    preload: CHILD_PRELOAD[gate] === true,
    defaultExports: GATE_CONTRACTS[gate].defaultExports,
  };
}
