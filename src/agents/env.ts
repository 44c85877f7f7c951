/** The environment an agent process gets: a short allow-list, a temporary HOME, never the CI's tokens. */

/** Harmless variables every agent needs to find its tools and speak the right locale. */
const BASE_ENV_NAMES = ["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TERM", "SHELL", "USER", "LOGNAME"];

/** Never passed to an agent, even when configured: the agent runs code the PR author controls. */
const NEVER_PASSED = [
  "GITHUB_TOKEN",
  "GH_TOKEN",
  "GH_ENTERPRISE_TOKEN",
  "GITHUB_ENTERPRISE_TOKEN",
  "ACTIONS_RUNTIME_TOKEN",
  "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
  "ACTIONS_ID_TOKEN_REQUEST_URL",
  "ACTIONS_CACHE_URL",
  "ACTIONS_RESULTS_URL",
  "INPUT_GITHUB-TOKEN",
  "INPUT_TOKEN",
];
/** Whole families never passed: the runner's internals (`ACTIONS_*`) and the action's inputs (`INPUT_*`). */
const NEVER_PASSED_PREFIXES = ["ACTIONS_", "INPUT_"];

function isNeverPassed(name: string): boolean {
  const upper = name.toUpperCase();
  return NEVER_PASSED.includes(upper) || NEVER_PASSED_PREFIXES.some((p) => upper.startsWith(p));
}

/** `NAME` matches exactly, `PREFIX*` matches every name starting with PREFIX. */
function matchesEnvPattern(name: string, pattern: string): boolean {
  return pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : name === pattern;
}

export interface AgentEnvOptions {
  /** Names or `PREFIX*` patterns the adapter passes through. */
  allow: readonly string[];
  /** Extra names from config (`env:` / `agent.env`): exact names, never patterns. */
  extra?: readonly string[];
  home: string;
  /** Where values come from; `process.env` by default. */
  source?: NodeJS.ProcessEnv;
  /** Fixed values set last (they win over passed-through ones, except the forbidden names). */
  set?: Record<string, string>;
}

export function buildAgentEnv(opts: AgentEnvOptions): Record<string, string> {
  return agentEnvFor(opts)(opts.home);
}

/**
 * The scrubbing of `buildAgentEnv` done once (a run's trials differ only in HOME): returns a function that gives
 * each trial its own copy with its HOME. The source is read when this is called, not per trial.
 */
export function agentEnvFor(opts: Omit<AgentEnvOptions, "home">): (home: string) => Record<string, string> {
  const source = opts.source ?? process.env;
  // The adapter's own allow-list may use `PREFIX*`; names from config (which a PR could have written, were it not
  // read from the base) are exact.
  const patterns = [...BASE_ENV_NAMES, ...opts.allow];
  const exact = new Set(opts.extra ?? []);
  const passed: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || isNeverPassed(name)) continue;
    if (exact.has(name) || patterns.some((p) => matchesEnvPattern(name, p))) passed[name] = value;
  }
  const set: Record<string, string> = {};
  for (const [name, value] of Object.entries(opts.set ?? {})) {
    if (!isNeverPassed(name)) set[name] = value;
  }
  return (home) => ({
    ...passed,
    HOME: home,
    XDG_CONFIG_HOME: `${home}/.config`,
    XDG_CACHE_HOME: `${home}/.cache`,
    TMPDIR: `${home}/tmp`,
    ...set,
  });
}
