/**
 * Policy comes from the base. In a pull request the PR's own `.skillgate.yml` is untrusted: the run is judged
 * under the base commit's configuration, and what the PR changes in it is compared key by key. A change that
 * loosens the gate (lower thresholds, a higher α, fewer trials, a weaker profile or override …) is a blocking
 * `policy-weakened` finding: once merged it would weaken every later PR. A tightening, or a change whose effect
 * on the verdict cannot be loosening (budgets, concurrency, timeouts), is reported and never blocks.
 */

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { configSchema } from "../detect/schemas.js";
import { parseSourceFile, type SourceFile } from "../detect/source-file.js";
import { validateAgainst } from "../detect/validate.js";
import {
  type Diagnostic,
  InputError,
  type SkillgateConfig,
  type SourceLocation,
  type Thresholds,
} from "../model/index.js";
import { DEFAULT_VERDICT_POLICY } from "./defaults.js";
import { judgeIsAgentWarnings } from "./judge-independence.js";
import { droppedTargets } from "./targets.js";

export const CONFIG_FILES = [".skillgate.yml", ".skillgate.yaml"];

/** The maintainers' override label when the base config names none. */
export const DEFAULT_OVERRIDE_LABEL = "skillgate: allow-weakening";

/** Where configuration is read from: a folder (a checkout) or a commit of a git repository. */
export type ConfigTree = { kind: "dir"; dir: string } | { kind: "git"; repoDir: string; sha: string };

export interface LoadedConfig {
  config: SkillgateConfig;
  /** Repository-relative path of the file read, when there was one. */
  file?: string;
  source?: SourceFile;
  /** Syntax and schema problems, located. */
  diagnostics: Diagnostic[];
}

/** Text of a repository-relative file in a tree, or undefined when it is not there. */
function readTreeFile(tree: ConfigTree, rel: string): string | undefined {
  if (tree.kind === "dir") {
    const abs = join(tree.dir, rel);
    return existsSync(abs) ? readFileSync(abs, "utf8") : undefined;
  }
  try {
    return execFileSync("git", ["-C", tree.repoDir, "show", `${tree.sha}:${rel.split("\\").join("/")}`], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch {
    return undefined;
  }
}

/**
 * Parses and validates the configuration of a tree: `rel` when given, else the first of CONFIG_FILES present.
 * Never throws: problems come back as diagnostics (the caller decides whether they are fatal).
 */
export function readConfig(tree: ConfigTree, rel?: string): LoadedConfig {
  for (const name of rel ? [rel] : CONFIG_FILES) {
    const text = readTreeFile(tree, name);
    if (text === undefined) continue;
    const src = parseSourceFile(name, text);
    const diagnostics: Diagnostic[] = [...src.diagnostics];
    if (src.value !== undefined && src.value !== null)
      diagnostics.push(...validateAgainst(configSchema, src.value, src, [], "config"));
    if (!diagnostics.some((d) => d.severity === "error"))
      diagnostics.push(...matrixProblems((src.value ?? {}) as SkillgateConfig, src));
    if (!diagnostics.some((d) => d.severity === "error"))
      diagnostics.push(...judgeIsAgentWarnings((src.value ?? {}) as SkillgateConfig, src));
    const valid = !diagnostics.some((d) => d.severity === "error");
    return {
      config: valid ? ((src.value ?? {}) as SkillgateConfig) : {},
      file: name,
      source: src,
      diagnostics,
    };
  }
  return { config: {}, diagnostics: [] };
}

/** How the PR's matrix would weaken the base's once merged (a cell dropped, made optional, label-gated or replayed). */
function matrixLoosening(
  base: NonNullable<SkillgateConfig["agents"]>,
  head: NonNullable<SkillgateConfig["agents"]>,
): string | undefined {
  for (const b of base) {
    const h = head.find((c) => c.name === b.name);
    if (!h) return `cell ${b.name} is removed`;
    if (b.required !== false && h.required === false) return `cell ${b.name} is no longer required`;
    if (!b.label && h.label) return `cell ${b.name} would run only with the label ${h.label}`;
    if (PROXY_ADAPTERS.has(h.adapter) && !PROXY_ADAPTERS.has(b.adapter))
      return `cell ${b.name} becomes the ${h.adapter} adapter, which answers without a live agent`;
  }
  return undefined;
}

/** What the schema cannot say about `agents:`: names unique, and `agent` beside it would be ambiguous. */
function matrixProblems(config: SkillgateConfig, src: SourceFile): Diagnostic[] {
  const cells = config.agents ?? [];
  const out: Diagnostic[] = [];
  const at = (path: (string | number)[], message: string, code: string) =>
    out.push({ ...src.locateKey(path), severity: "error", message, code });
  if (config.agent && cells.length)
    at(
      ["agents"],
      "give either agent (one agent) or agents (a matrix of cells), not both",
      "config/agent-and-agents",
    );
  const seen = new Map<string, number>();
  cells.forEach((c, i) => {
    const first = seen.get(c.name);
    if (first !== undefined)
      at(
        ["agents", i, "name"],
        `cell name ${c.name} is used twice (agents[${first}] and agents[${i}])`,
        "config/duplicate-cell",
      );
    else seen.set(c.name, i);
  });
  if (cells.length && !cells.some((c) => c.required !== false))
    at(
      ["agents"],
      "every cell is required: false, so no cell could fail the check",
      "config/no-required-cell",
    );
  return out;
}

/** The trusted configuration: an invalid one is the maintainers' configuration error (exit 2), never ignored. */
export function readTrustedConfig(tree: ConfigTree, rel: string | undefined, where: string): LoadedConfig {
  if (rel && readTreeFile(tree, rel) === undefined)
    throw new InputError(`config file not found in ${where}: ${rel}`);
  const loaded = readConfig(tree, rel);
  if (loaded.diagnostics.some((d) => d.severity === "error"))
    throw new InputError(`invalid configuration in ${loaded.file} (${where})`, loaded.diagnostics);
  return loaded;
}

/** A configuration file given by path (the local operator's own, outside the repository). */
export function readConfigFile(path: string): LoadedConfig {
  if (!existsSync(path)) throw new InputError(`config file not found: ${path}`);
  const loaded = readConfig({ kind: "dir", dir: resolve(path, "..") }, path.split(/[\\/]/).pop()!);
  if (loaded.diagnostics.some((d) => d.severity === "error"))
    throw new InputError(`invalid configuration in ${path}`, loaded.diagnostics);
  return { ...loaded, file: path };
}

/** The repository-relative path of `config` when it names a file inside `repoDir`. */
export function repoRelative(repoDir: string, config: string): string | undefined {
  const abs = isAbsolute(config) ? config : resolve(repoDir, config);
  const rel = relative(repoDir, abs);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? undefined : rel.split("\\").join("/");
}

/** What the PR allows that the base does not (a loosening), or stops allowing (a tightening), in `security.allow`. */
function securityChange(
  b: SkillgateConfig,
  h: SkillgateConfig,
  add: (key: string, kind: PolicyChangeKind, message: string) => void,
): void {
  for (const list of ["hosts", "commands"] as const) {
    const before = new Set(b.security?.allow?.[list] ?? []);
    const after = new Set(h.security?.allow?.[list] ?? []);
    const added = [...after].filter((x) => !before.has(x));
    const removed = [...before].filter((x) => !after.has(x));
    const key = `security.allow.${list}`;
    if (added.length)
      add(
        key,
        "loosened",
        `${key} allows ${added.map((x) => JSON.stringify(x)).join(", ")} in addition to the base's: a risky action would no longer block`,
      );
    else if (removed.length)
      add(key, "tightened", `${key} no longer allows ${removed.map((x) => JSON.stringify(x)).join(", ")}`);
  }
}

export type PolicyChangeKind = "loosened" | "tightened" | "changed";

/** One difference between the base's policy and the PR's, located in the PR's file. */
export interface PolicyChange {
  /** `policy/<key>`: stable across runs. */
  id: string;
  /** Dotted key, e.g. `verdict.alpha`. */
  key: string;
  kind: PolicyChangeKind;
  message: string;
  file: string;
  line: number;
  column: number;
}

const fmt = (v: unknown): string => (v === undefined ? "unset" : JSON.stringify(v));
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

const THRESHOLD_KEYS: (keyof Thresholds)[] = [
  "discriminatorPassRate",
  "discriminatorLift",
  "triggerPrecision",
  "triggerRecall",
];

/** Adapters whose answers are not a live agent's: switching to one makes every later verdict a proxy. */
const PROXY_ADAPTERS = new Set(["replay", "lexical"]);

/**
 * Compares the PR's configuration with the base's, key by key. `head` undefined: the PR deleted the file.
 * `headSource` locates each finding on the PR's line; a removed key sits on line 1 of the PR's file.
 */
export function comparePolicies(
  base: LoadedConfig,
  head: LoadedConfig,
  defaults: { trials: number; triggerRuns: number; competitorPrompts: number; casePrompts?: number },
): PolicyChange[] {
  const out: PolicyChange[] = [];
  const b = base.config;
  const h = head.config;
  const file = head.file ?? base.file ?? CONFIG_FILES[0]!;
  const loc = (path: (string | number)[]): SourceLocation =>
    head.source ? head.source.locateKey(path) : { file, line: 1, column: 1 };
  const add = (key: string, kind: PolicyChangeKind, message: string, path = key.split(".")) => {
    const at = loc(path);
    out.push({ id: `policy/${key}`, key, kind, message, file: at.file, line: at.line, column: at.column });
  };
  const was = (key: string, bv: unknown, hv: unknown) =>
    `${key} was ${fmt(bv)} at base and is ${fmt(hv)} here`;

  // Numbers where lower is looser (thresholds, trials, confirmation trials).
  const atLeast = (key: string, bv: number | undefined, hv: number | undefined, dflt?: number) => {
    const be = bv ?? dflt;
    const he = hv ?? dflt;
    if (same(bv, hv)) return;
    if (be === undefined) add(key, "tightened", `${was(key, bv, hv)}: a new minimum`);
    else if (he === undefined || he < be) add(key, "loosened", `${was(key, bv, hv)}: lowered`);
    else if (he > be) add(key, "tightened", `${was(key, bv, hv)}: raised`);
    else add(key, "changed", was(key, bv, hv));
  };
  for (const k of THRESHOLD_KEYS) atLeast(`thresholds.${k}`, b.thresholds?.[k], h.thresholds?.[k]);
  atLeast("trials", b.trials, h.trials, defaults.trials);
  atLeast("triggerRuns", b.triggerRuns, h.triggerRuns, defaults.triggerRuns);
  // Fewer competitor prompts is less coverage of the prompts a description can steal: a loosening.
  atLeast(
    "competitors.maxPrompts",
    b.competitors?.maxPrompts,
    h.competitors?.maxPrompts,
    defaults.competitorPrompts,
  );
  // Fewer case prompts run as should-fire queries is less of a description's routing checked: a loosening.
  atLeast("routing.casePrompts", b.routing?.casePrompts, h.routing?.casePrompts, defaults.casePrompts);
  if ((b.requireSuite ?? false) !== (h.requireSuite ?? false))
    add(
      "requireSuite",
      h.requireSuite ? "tightened" : "loosened",
      `${was("requireSuite", b.requireSuite, h.requireSuite)}${h.requireSuite ? "" : ": a new skill without an eval suite would no longer block"}`,
    );
  else if (!same(b.requireSuite, h.requireSuite))
    add("requireSuite", "changed", was("requireSuite", b.requireSuite, h.requireSuite));
  const bv = { ...DEFAULT_VERDICT_POLICY, ...b.verdict };
  const hv = { ...DEFAULT_VERDICT_POLICY, ...h.verdict };
  atLeast(
    "verdict.maxConfirmationTrials",
    b.verdict?.maxConfirmationTrials,
    h.verdict?.maxConfirmationTrials,
    DEFAULT_VERDICT_POLICY.maxConfirmationTrials,
  );
  atLeast("verdict.baseDepth", b.verdict?.baseDepth, h.verdict?.baseDepth, DEFAULT_VERDICT_POLICY.baseDepth);
  if (!same(b.verdict?.alpha, h.verdict?.alpha)) {
    const kind = hv.alpha > bv.alpha ? "loosened" : hv.alpha < bv.alpha ? "tightened" : "changed";
    add(
      "verdict.alpha",
      kind,
      `${was("verdict.alpha", b.verdict?.alpha, h.verdict?.alpha)}${kind === "loosened" ? ": a new root then needs less evidence" : ""}`,
    );
  }
  // Enums where one value blocks and the other does not.
  const blocksWhen = (key: "inconclusive" | "preExisting" | "headOnly", blocking: string) => {
    const bb = bv[key] ?? "fail";
    const hb = hv[key] ?? "fail";
    if (same(b.verdict?.[key], h.verdict?.[key])) return;
    const kind = bb === hb ? "changed" : hb === blocking ? "tightened" : "loosened";
    add(
      `verdict.${key}`,
      kind,
      `${was(`verdict.${key}`, b.verdict?.[key], h.verdict?.[key])}${kind === "loosened" ? ": such roots would no longer block" : ""}`,
    );
  };
  blocksWhen("inconclusive", "fail");
  blocksWhen("preExisting", "fail");
  blocksWhen("headOnly", "fail");
  if (!same(b.profile, h.profile)) {
    const strictBefore = (b.profile ?? "claude-code") === "strict";
    const strictNow = (h.profile ?? "claude-code") === "strict";
    add(
      "profile",
      strictBefore && !strictNow ? "loosened" : strictNow && !strictBefore ? "tightened" : "changed",
      was("profile", b.profile, h.profile),
    );
  }
  const dropped = droppedTargets(b, h);
  if (dropped.length > 0)
    add(
      "targets",
      "loosened",
      `${was("targets", b.targets, h.targets)}: the rules of ${dropped.join(", ")} would no longer be errors`,
    );
  else if (!same(b.targets, h.targets)) add("targets", "changed", was("targets", b.targets, h.targets));
  for (const key of ["agent", "judge"] as const) {
    if (same(b[key], h[key])) continue;
    const toProxy =
      h[key] && PROXY_ADAPTERS.has(h[key]!.adapter) && !PROXY_ADAPTERS.has(b[key]?.adapter ?? "");
    const dropped = key === "judge" && b.judge && !h.judge;
    add(
      key,
      toProxy || dropped ? "loosened" : "changed",
      toProxy
        ? `${key} becomes the ${h[key]!.adapter} adapter, which answers without a live agent`
        : dropped
          ? "the judge is removed: judge assertions could no longer be graded"
          : `${key} is changed (${fmt(b[key])} at base, ${fmt(h[key])} here); this run uses the base's`,
    );
  }
  if (!same(b.agents, h.agents)) {
    const loosening = matrixLoosening(b.agents ?? [], h.agents ?? []);
    add(
      "agents",
      loosening ? "loosened" : "changed",
      loosening
        ? `agents: ${loosening}; this run uses the base's cells`
        : `agents is changed (${fmt(b.agents)} at base, ${fmt(h.agents)} here); this run uses the base's cells`,
    );
  }
  // Which skills are evaluated, how gates probe, who may override, how isolated: any change can weaken the
  // gate in ways a key-by-key comparison cannot rank, so it needs a maintainer's approval.
  for (const key of ["skills", "gates", "override", "isolation", "onDemand"] as const) {
    if (same((b as Record<string, unknown>)[key], (h as Record<string, unknown>)[key])) continue;
    add(
      key,
      "loosened",
      `${key} is changed (${fmt((b as Record<string, unknown>)[key])} at base, ${fmt((h as Record<string, unknown>)[key])} here): it can change what is checked, so it needs a maintainer's approval`,
    );
  }
  securityChange(b, h, add);
  // Cost and plumbing: they cannot make a failing PR pass (a spent budget is an error, never a pass).
  // More of the runner's environment handed to the (untrusted) agent is a weakening; less is not.
  const benv = new Set(b.env ?? []);
  const henv = new Set(h.env ?? []);
  const added = [...henv].filter((n) => !benv.has(n));
  const removed = [...benv].filter((n) => !henv.has(n));
  if (added.length)
    add(
      "env",
      "loosened",
      `env forwards ${added.join(", ")} to the agent in addition to the base's ${fmt(b.env ?? [])}`,
    );
  else if (removed.length) add("env", "tightened", `env no longer forwards ${removed.join(", ")}`);
  for (const key of ["budget", "concurrency", "timeoutSeconds", "cache"] as const) {
    if (same((b as Record<string, unknown>)[key], (h as Record<string, unknown>)[key])) continue;
    add(
      key,
      "changed",
      `${was(key, (b as Record<string, unknown>)[key], (h as Record<string, unknown>)[key])}; this run uses the base's`,
    );
  }
  return out;
}
