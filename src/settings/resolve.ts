import { dirname, isAbsolute, join, resolve } from "node:path";
import { type AgentConfig, type BaseSource, InputError, type Logger, type Settings } from "../model/index.js";
import { parseShard } from "../plan/shard.js";
import { DEFAULT_VERDICT_POLICY } from "../verdict/policy.js";
import { loadConfig } from "./config.js";

/** Flat options as the CLI flags and the action inputs give them; parsed once into `Settings`. */
export interface RawOptions {
  repo?: string;
  config?: string;
  agent?: string;
  trials?: string;
  skills?: string;
  shard?: string;
  base?: string;
  baseDir?: string;
  baseReport?: string;
  noCache?: boolean;
  json?: string;
  junit?: string;
  sarif?: string;
  seed?: string;
  changedFiles?: string[];
  allowSuiteChange?: boolean;
  /** Writes replay recordings of every trial run into this directory. */
  record?: string;
}

export const DEFAULTS = {
  trials: 3,
  triggerRuns: 3,
  concurrency: 4,
  timeoutSeconds: 300,
  cacheDir: ".skillgate-cache",
  seed: 42,
  verdict: DEFAULT_VERDICT_POLICY,
} as const;

/** The offline default agent: recorded trials next to the suites. */
export const DEFAULT_AGENT: AgentConfig = { adapter: "replay", recordings: ".skillgate/recordings" };

export async function resolveSettings(raw: RawOptions, logger: Logger): Promise<Settings> {
  const repoDir = resolve(raw.repo ?? ".");
  const { config, file } = loadConfig(repoDir, raw.config);
  const agent: AgentConfig = raw.agent
    ? { ...(config.agent?.adapter === raw.agent ? config.agent : {}), adapter: raw.agent }
    : (config.agent ?? DEFAULT_AGENT);
  const trials =
    raw.trials !== undefined ? positiveInt(raw.trials, "--trials") : (config.trials ?? DEFAULTS.trials);
  const bases = [raw.base, raw.baseDir, raw.baseReport].filter((b) => b !== undefined);
  if (bases.length > 1) throw new InputError("give only one of --base, --base-dir and --base-report");
  let base: BaseSource | undefined;
  if (raw.base) base = { kind: "ref", ref: raw.base };
  else if (raw.baseDir) base = { kind: "dir", dir: abs(raw.baseDir) };
  else if (raw.baseReport)
    // Comparing needs the base's per-trial outcomes, which a stored report does not carry yet: refuse rather
    // than silently evaluating without a base.
    throw new InputError(
      `--base-report ${raw.baseReport}: comparing with a stored report is not supported yet; use --base REF (a git ref) or --base-dir DIR`,
    );
  const seed = raw.seed !== undefined ? nonNegativeInt(raw.seed, "--seed") : DEFAULTS.seed;
  const cacheDir = config.cache?.dir ?? DEFAULTS.cacheDir;
  return {
    repoDir,
    configFile: file,
    config,
    base,
    skillsFilter: raw.skills || undefined,
    agent,
    judge: config.judge,
    profile: config.profile ?? "claude-code",
    trials,
    triggerRuns: config.triggerRuns ?? DEFAULTS.triggerRuns,
    concurrency: config.concurrency ?? DEFAULTS.concurrency,
    timeoutMs: (config.timeoutSeconds ?? DEFAULTS.timeoutSeconds) * 1000,
    shard: raw.shard ? parseShard(raw.shard) : undefined,
    cache: {
      enabled: !raw.noCache && config.cache?.enabled !== false,
      dir: isAbsolute(cacheDir) ? cacheDir : join(repoDir, cacheDir),
    },
    budget: config.budget ?? {},
    thresholds: config.thresholds ?? {},
    verdict: {
      ...DEFAULTS.verdict,
      ...config.verdict,
      ...(raw.allowSuiteChange ? { allowSuiteChange: true } : {}),
    },
    seed,
    changedFiles: raw.changedFiles,
    outputs: {
      json: raw.json && abs(raw.json),
      junit: raw.junit && abs(raw.junit),
      sarif: raw.sarif && abs(raw.sarif),
      // skill-creator's benchmark.json / grading.json go next to the JSON report
      exports: raw.json ? join(dirname(abs(raw.json)), "skill-creator") : undefined,
    },
    record: raw.record ? abs(raw.record) : undefined,
    logger,
  };
}

function abs(p: string): string {
  return resolve(p);
}

function positiveInt(v: string, flag: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 100)
    throw new InputError(`${flag} must be a whole number from 1 to 100 (got \`${v}\`)`);
  return n;
}

function nonNegativeInt(v: string, flag: string): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 0)
    throw new InputError(`${flag} must be a whole number ≥ 0 (got \`${v}\`)`);
  return n;
}
