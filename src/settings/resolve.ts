import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { changedFilesSince, findMergeBase } from "../detect/base.js";
import type { SourceFile } from "../detect/source-file.js";
import { UsageError } from "../model/diagnostics.js";
import type {
  AgentConfig,
  BaseSource,
  Logger,
  PolicyState,
  Settings,
  SkillgateConfig,
} from "../model/index.js";
import { defaultAgentConcurrency } from "./concurrency.js";
import {
  DEFAULT_BUDGET,
  DEFAULT_CASE_PROMPTS,
  DEFAULT_COMPETITOR_PROMPTS,
  DEFAULT_VERDICT_POLICY,
} from "./defaults.js";
import { resolveMatrix } from "./matrix.js";
import {
  type ConfigTree,
  comparePolicies,
  DEFAULT_OVERRIDE_LABEL,
  type LoadedConfig,
  readConfig,
  readConfigFile,
  readTrustedConfig,
  repoRelative,
} from "./policy.js";
import { parseShard } from "./shard-spec.js";
import { resolveTargets } from "./targets.js";

/** Flat options as the CLI flags and the action inputs give them; parsed once into `Settings`. */
export interface RawOptions {
  repo?: string;
  config?: string;
  agent?: string;
  /** The agent's model (`agent.model`), for this run. */
  model?: string;
  trials?: string;
  skills?: string;
  shard?: string;
  base?: string;
  /** The head commit `base` is compared with (its merge base is the base); default the checkout's HEAD. */
  head?: string;
  baseDir?: string;
  noCache?: boolean;
  json?: string;
  junit?: string;
  sarif?: string;
  /** The review report: one self-contained HTML file. */
  html?: string;
  /** The check run's Markdown summary. */
  markdown?: string;
  seed?: string;
  changedFiles?: string[];
  /** A maintainer's approval of suite or policy weakening, and where it came from (label, input, flag). */
  allowWeakening?: { by: string };
  /** Writes replay recordings of every trial run into this directory. */
  record?: string;
  /** Cells of the config's agent matrix to evaluate (comma separated names); default every cell. */
  cells?: string;
  /** Environment the cache location is derived from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

const DEFAULTS = {
  trials: 5,
  triggerRuns: 3,
  competitorPrompts: DEFAULT_COMPETITOR_PROMPTS,
  casePrompts: DEFAULT_CASE_PROMPTS,
  timeoutSeconds: 300,
  seed: 42,
  verdict: DEFAULT_VERDICT_POLICY,
} as const;

/** The offline default agent: recorded trials, read from the trusted tree (the base in a PR). */
const DEFAULT_AGENT: AgentConfig = { adapter: "replay", recordings: ".skillgate/recordings" };

/**
 * Where the trial cache lives: never inside the checkout being judged (a PR could commit forged entries).
 * Under Actions, `RUNNER_TEMP` (restored from and saved to the Actions cache); locally the user's cache folder.
 * A configured `cache.dir` is used only when it lies outside the checkout.
 */
export function trialCacheDir(
  repoDir: string,
  configured: string | undefined,
  env: NodeJS.ProcessEnv,
  logger?: Logger,
): string {
  const fallback =
    env.GITHUB_ACTIONS === "true" && env.RUNNER_TEMP
      ? join(env.RUNNER_TEMP, "skillgate-trial-cache")
      : join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "skillgate", "trials");
  if (!configured) return fallback;
  const abs = isAbsolute(configured) ? configured : resolve(repoDir, configured);
  const rel = relative(repoDir, abs);
  if (rel === "" || (!rel.startsWith("..") && !isAbsolute(rel))) {
    logger?.warn(
      `cache.dir ${configured} lies inside the checkout, where anyone who can push could plant answers; using ${fallback}`,
    );
    return fallback;
  }
  return abs;
}

/** `--base-dir`: a folder holding the base checkout. */
function baseDirOf(given: string): BaseSource {
  const dir = resolve(given);
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new UsageError(`--base-dir ${given}: no such folder (${dir})`);
  return { kind: "dir", dir };
}

export async function resolveSettings(raw: RawOptions, logger: Logger): Promise<Settings> {
  const env = raw.env ?? process.env;
  const repoDir = resolve(raw.repo ?? ".");
  if (!existsSync(repoDir) || !statSync(repoDir).isDirectory())
    throw new UsageError(`--repo ${raw.repo ?? "."}: no such folder (${repoDir})`);
  const { base, changedFiles } = await resolveBase(raw, repoDir, logger);
  const { config, policy } = resolvePolicy(repoDir, base, raw.config);
  const { agent, matrix } = resolveAgent(raw, config, policy.origin);
  // `--trials` (the `trials` input) overrides every suite's meta.json; the config's `trials` is the default.
  const trialsOverride = raw.trials !== undefined ? positiveInt(raw.trials, "--trials") : undefined;
  const trials = trialsOverride ?? config.trials ?? DEFAULTS.trials;
  const seed = raw.seed !== undefined ? nonNegativeInt(raw.seed, "--seed") : DEFAULTS.seed;
  return {
    repoDir,
    configFile: policy.file,
    config,
    base,
    skillsFilter: raw.skills || undefined,
    skills: {
      globs: config.skills?.globs,
      include: config.skills?.include,
      exclude: config.skills?.exclude,
    },
    env: config.env ?? [],
    agent,
    ...(matrix ? { matrix } : {}),
    judge: config.judge,
    profile: config.profile ?? "claude-code",
    targets: resolveTargets(config),
    trials,
    ...(trialsOverride !== undefined ? { trialsOverride } : {}),
    triggerRuns: config.triggerRuns ?? DEFAULTS.triggerRuns,
    competitorPrompts: config.competitors?.maxPrompts ?? DEFAULTS.competitorPrompts,
    casePrompts: config.routing?.casePrompts ?? DEFAULTS.casePrompts,
    requireSuite: config.requireSuite === true,
    security: {
      allow: { hosts: config.security?.allow?.hosts ?? [], commands: config.security?.allow?.commands ?? [] },
    },
    concurrency: config.concurrency ?? defaultAgentConcurrency(),
    timeoutMs: (config.timeoutSeconds ?? DEFAULTS.timeoutSeconds) * 1000,
    shard: raw.shard ? parseShard(raw.shard) : undefined,
    cache: {
      enabled: !raw.noCache && config.cache?.enabled !== false,
      dir: trialCacheDir(repoDir, config.cache?.dir, env, logger),
    },
    // A required check must not spend without limit: a base config without `budget` gets the default one.
    budget: config.budget ?? { ...DEFAULT_BUDGET },
    budgetSource: config.budget
      ? (policy.file ?? "the configuration")
      : `the default: ${DEFAULT_BUDGET.maxAgentCalls} calls, $${DEFAULT_BUDGET.maxUsd}`,
    thresholds: config.thresholds ?? {},
    verdict: { ...DEFAULTS.verdict, ...config.verdict },
    policy,
    ...(raw.allowWeakening ? { override: raw.allowWeakening } : {}),
    seed,
    changedFiles,
    outputs: outputsOf(raw),
    record: raw.record ? abs(raw.record) : undefined,
    // Only the trusted config may accept weaker isolation; the Action makes it required (run-action.ts).
    isolation: { required: false, allowWeaker: config.isolation?.allowWeaker === true },
    logger,
  };
}

/** The base a PR is compared with (`--base` read at the merge base, or `--base-dir`), and the PR's changed files. */
async function resolveBase(
  raw: RawOptions,
  repoDir: string,
  logger: Logger,
): Promise<{ base: BaseSource | undefined; changedFiles: RawOptions["changedFiles"] }> {
  const bases = [raw.base, raw.baseDir].filter((b) => b !== undefined);
  if (bases.length > 1) throw new UsageError("give only one of --base and --base-dir");
  if (raw.baseDir) return { base: baseDirOf(raw.baseDir), changedFiles: raw.changedFiles };
  if (!raw.base) return { base: undefined, changedFiles: raw.changedFiles };
  // What the PR's diff shows: head against the merge base, not against wherever the base branch is now.
  const mergeBase = await findMergeBase(repoDir, raw.base, raw.head ?? "HEAD", {
    log: (m) => logger.info(m),
  });
  if (mergeBase.sha !== mergeBase.tip)
    logger.info(
      `base ${raw.base} is at ${mergeBase.tip.slice(0, 12)}; comparing with the merge base ${mergeBase.sha.slice(0, 12)}`,
    );
  return {
    base: { kind: "ref", ref: raw.base, sha: mergeBase.sha, tip: mergeBase.tip },
    // What the PR's file list says, from git when no one gave it: the base side then reads only what changed.
    changedFiles: raw.changedFiles ?? changedFilesSince(repoDir, mergeBase.sha),
  };
}

/** The agent of this run: `--agent`/`--model` over the config's, or the first chosen cell of its `agents:` matrix. */
function resolveAgent(
  raw: RawOptions,
  config: SkillgateConfig,
  origin: string,
): { agent: AgentConfig; matrix: ReturnType<typeof resolveMatrix> | undefined } {
  if (raw.cells && !config.agents)
    throw new UsageError(`--cell ${raw.cells}: the configuration (${origin}) defines no agents: matrix`);
  const override = raw.agent ? `--agent ${raw.agent}` : raw.model ? `--model ${raw.model}` : undefined;
  if (override && config.agents)
    throw new UsageError(
      `${override}: the configuration (${origin}) defines an agents: matrix; choose its cells with --cell`,
    );
  const matrix = config.agents ? resolveMatrix(config.agents, raw.cells) : undefined;
  const firstCell = matrix?.cells.find((c) => c.name === matrix.selected[0]);
  const chosen: AgentConfig = raw.agent
    ? { ...(config.agent?.adapter === raw.agent ? config.agent : {}), adapter: raw.agent }
    : (config.agent ?? DEFAULT_AGENT);
  const agent: AgentConfig = firstCell
    ? firstCell.agent
    : raw.model
      ? { ...chosen, model: raw.model }
      : chosen;
  return { agent, matrix };
}

function outputsOf(raw: RawOptions): Settings["outputs"] {
  return {
    json: raw.json && abs(raw.json),
    junit: raw.junit && abs(raw.junit),
    sarif: raw.sarif && abs(raw.sarif),
    html: raw.html && abs(raw.html),
    markdown: raw.markdown && abs(raw.markdown),
    exports: raw.json ? skillCreatorExportsDir(abs(raw.json)) : undefined,
  };
}

/**
 * The trusted configuration and what the PR changed in it. With a base (a PR), the policy is the base's
 * `.skillgate.yml` (or the repository file `--config` names, as of base); the checkout's own file is only
 * compared with it. Without a base (a sweep), the checkout is the tree being vouched for and its file applies.
 * A `--config` outside the repository is the local operator's own file and applies as it is.
 */
export function resolvePolicy(
  repoDir: string,
  base: BaseSource | undefined,
  configOption: string | undefined,
): { config: LoadedConfig["config"]; policy: PolicyState } {
  const rel = configOption ? repoRelative(repoDir, configOption) : undefined;
  const checkout: ConfigTree = { kind: "dir", dir: repoDir };
  const trusted: { tree: ConfigTree; where: string } | undefined =
    base?.kind === "dir"
      ? { tree: { kind: "dir", dir: base.dir }, where: `base folder ${base.dir}` }
      : base?.kind === "ref" && base.sha
        ? { tree: { kind: "git", repoDir, sha: base.sha }, where: `base commit ${base.sha.slice(0, 12)}` }
        : undefined;
  let loaded: LoadedConfig;
  let origin: string;
  let operatorFile: string | undefined;
  if (configOption && !rel) {
    // Read where the repository check looked: a relative --config is a path from the repository.
    operatorFile = resolve(repoDir, configOption);
    loaded = readConfigFile(operatorFile);
    origin = `the operator's file ${configOption}`;
  } else if (trusted) {
    loaded = readTrustedConfig(trusted.tree, rel, trusted.where);
    origin = `${trusted.where}${loaded.file ? ` (${loaded.file})` : " (no config file: defaults)"}`;
  } else {
    loaded = readTrustedConfig(checkout, rel, "the checkout");
    origin = `the checkout${loaded.file ? ` (${loaded.file})` : " (no config file: defaults)"}`;
  }
  const policy: PolicyState = {
    origin,
    ...(loaded.file ? { file: loaded.file } : {}),
    ...(base?.kind === "dir" ? { dir: base.dir } : !base ? { dir: repoDir } : {}),
    ...(operatorFile ? { agentDir: dirname(operatorFile) } : {}),
    changes: [],
    headDiagnostics: [],
    warnings: loaded.diagnostics,
    ...(loaded.source ? { locateKey: keyLocator(loaded.source) } : {}),
    overrideLabel: loaded.config.override?.label ?? DEFAULT_OVERRIDE_LABEL,
  };
  if (trusted && !(configOption && !rel)) {
    const head = readConfig(checkout, rel ?? loaded.file);
    const headFile = head.file ?? rel ?? loaded.file;
    // A config file the base did not have, or deleted at head, is compared too (against defaults).
    if (head.file || loaded.file) {
      policy.headDiagnostics = head.diagnostics;
      if (!head.diagnostics.some((d) => d.severity === "error"))
        policy.changes = comparePolicies(
          loaded,
          { ...head, ...(headFile ? { file: headFile } : {}) },
          {
            trials: DEFAULTS.trials,
            triggerRuns: DEFAULTS.triggerRuns,
            competitorPrompts: DEFAULTS.competitorPrompts,
            casePrompts: DEFAULTS.casePrompts,
          },
        );
    }
  }
  return { config: loaded.config, policy };
}

/** Where a key of the policy's file is, for errors found after it was read (a command that cannot start). */
function keyLocator(src: SourceFile): PolicyState["locateKey"] {
  return (path) => {
    const at = src.locateKey(path);
    return { line: at.line, column: at.column };
  };
}

/**
 * skill-creator's benchmark.json / grading.json go next to the JSON report, in a folder named after it
 * (`out.json` → `out.skill-creator/`): two reports written to one folder keep their own exports.
 */
function skillCreatorExportsDir(jsonReport: string): string {
  return join(dirname(jsonReport), `${basename(jsonReport).replace(/\.json$/i, "")}.skill-creator`);
}

function abs(p: string): string {
  return resolve(p);
}

function positiveInt(v: string, flag: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 100)
    throw new UsageError(`${flag} must be a whole number from 1 to 100 (got \`${v}\`)`);
  return n;
}

function nonNegativeInt(v: string, flag: string): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 0)
    throw new UsageError(`${flag} must be a whole number ≥ 0 (got \`${v}\`)`);
  return n;
}
