/**
 * `npm run bench [-- --json FILE] [-- --only a,b] [-- --with-promptfoo] [-- --seconds N]`: runs every section in
 * one process, within a time allotment (`budget.ts`), prints a table of figures and writes the merged JSON. Every
 * figure is measured in this run.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { DEFAULT_SECONDS, sectionDeadline } from "./budget.js";
import type { BenchContext, BenchSection } from "./types.js";

type Loader = () => Promise<BenchSection>;

/** Sections in run order; each returns JSON figures under its own top-level keys. */
const SECTIONS: Record<string, Loader> = {
  orchestration: async () => (await import("./orchestration.js")).bench,
  cache: async () => (await import("./cache.js")).bench,
  cost: async () => (await import("./cost.js")).bench,
  gates: async () => (await import("./gates.js")).bench,
  grade: async () => (await import("./grade.js")).bench,
  verdict: async () => (await import("./verdict.js")).bench,
  "verdict-e2e": async () => (await import("./verdict-e2e.js")).bench,
  "verdict-shapes": async () => (await import("./verdict-shapes.js")).bench,
  latency: async () => (await import("./latency.js")).bench,
  discovery: async () => (await import("./discovery.js")).bench,
  scale: async () => (await import("./scale.js")).bench,
  startup: async () => (await import("./startup.js")).bench,
  isolation: async () => (await import("./isolation.js")).bench,
  observation: async () => (await import("./observation.js")).bench,
  "trigger-stop": async () => (await import("./trigger-stop.js")).bench,
  fuzz: async () => (await import("./fuzz.js")).bench,
  "review-report": async () => (await import("./review-report.js")).bench,
  "static-review": async () => (await import("./static-review.js")).bench,
  reworded: async () => (await import("./reworded.js")).bench,
};

function parseFlags(argv: string[]): Record<string, boolean | string> {
  const flags: Record<string, boolean | string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith("--")) continue;
    const name = a.slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    const next = argv[i + 1];
    if (next !== undefined && !next.startsWith("--")) {
      flags[name] = next;
      i++;
    } else flags[name] = true;
  }
  return flags;
}

function merge(into: Record<string, unknown>, from: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(from)) {
    const cur = into[k];
    if (
      cur &&
      typeof cur === "object" &&
      !Array.isArray(cur) &&
      v &&
      typeof v === "object" &&
      !Array.isArray(v)
    )
      merge(cur as Record<string, unknown>, v as Record<string, unknown>);
    else into[k] = v;
  }
}

/**
 * Dotted keys (`cacheReplay.ms`) become nested objects; a section that returns bare figures is put under its own
 * name (`verdict.powerAt5Trials`), so every figure has one path in the JSON.
 */
function namespaced(section: string, figures: Record<string, unknown>): Record<string, unknown> {
  const nested: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(figures)) {
    const parts = key.split(".");
    let at = nested;
    for (const p of parts.slice(0, -1)) {
      if (!at[p] || typeof at[p] !== "object") at[p] = {};
      at = at[p] as Record<string, unknown>;
    }
    const last = parts[parts.length - 1]!;
    const cur = at[last];
    if (cur && typeof cur === "object" && value && typeof value === "object")
      merge(cur as Record<string, unknown>, value as Record<string, unknown>);
    else at[last] = value;
  }
  // Only a section of bare figures (no dotted keys, no objects) is put under its own name.
  const bare = Object.entries(figures).every(
    ([k, v]) => !k.includes(".") && (v === null || typeof v !== "object"),
  );
  return bare ? { [section]: nested } : nested;
}

export async function main(root: string, argv: string[]): Promise<number> {
  const flags = parseFlags(argv);
  const only = typeof flags.only === "string" ? new Set(flags.only.split(",")) : undefined;
  const tmp = mkdtempSync(join(tmpdir(), "skillgate-bench-"));
  const result: Record<string, unknown> = {
    machine: {
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      cpus: (await import("node:os")).cpus().length,
    },
    startedAt: new Date().toISOString(),
  };
  const started = Date.now();
  const seconds = flags.seconds === undefined ? DEFAULT_SECONDS : Number(flags.seconds);
  if (typeof (flags.seconds ?? "") !== "string" || !Number.isFinite(seconds) || seconds < 0)
    throw new Error("bench: --seconds must be a number of seconds (0: no time allotment)");
  const allotMs = seconds === 0 ? Number.POSITIVE_INFINITY : seconds * 1000;
  result.secondsAllotted = seconds === 0 ? null : seconds;
  const log = (line: string) => process.stdout.write(`  ${line}\n`);
  const torun = Object.keys(SECTIONS).filter((name) => !only || only.has(name));
  const unknown = [...(only ?? [])].filter((name) => !(name in SECTIONS));
  if (unknown.length)
    throw new Error(
      `bench: no section ${unknown.join(", ")} (sections: ${Object.keys(SECTIONS).join(", ")})`,
    );
  let failed = 0;
  try {
    for (const [i, name] of torun.entries()) {
      const load = SECTIONS[name]!;
      const deadline = sectionDeadline(name, torun.slice(i), allotMs - (Date.now() - started));
      const ctx: BenchContext = { root, tmp, flags, log, deadline };
      const share = Number.isFinite(deadline)
        ? ` (${Math.round((deadline - Date.now()) / 1000)} s allotted)`
        : "";
      process.stdout.write(`${name}${share}\n`);
      const t0 = Date.now();
      try {
        merge(result, namespaced(name, await (await load())(ctx)));
      } catch (e) {
        failed++;
        merge(result, { errors: { [name]: (e as Error).stack ?? String(e) } });
        process.stdout.write(`  FAILED: ${(e as Error).message}\n`);
      }
      process.stdout.write(`  (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);
    }
  } finally {
    // `--keep-tmp`: what sections kept (a missed PR's repositories and report) stays for a look.
    if (flags.keepTmp) process.stdout.write(`kept ${tmp}\n`);
    else rmSync(tmp, { recursive: true, force: true });
  }
  result.totalSeconds = Math.round((Date.now() - started) / 100) / 10;
  process.stdout.write(
    `total ${result.totalSeconds} s${Number.isFinite(allotMs) ? ` (allotted ${seconds} s, 600 s the goal)` : ""}\n`,
  );
  if (typeof flags.json === "string") {
    const file = resolve(flags.json);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(`wrote ${file}\n`);
  }
  return failed ? 1 : 0;
}
