/** The environment an agent process gets: a short allow-list, a temporary HOME, never the CI's tokens. */

/** Harmless variables every agent needs to find its tools and speak the right locale. */
export const BASE_ENV_NAMES = [
  "PATH",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  "TERM",
  "SHELL",
  "USER",
  "LOGNAME",
];

/** Never passed to an agent, even when configured: the agent runs code the PR author controls. */
export const NEVER_PASSED = [
  "GITHUB_TOKEN",
  "GH_TOKEN",
  "ACTIONS_RUNTIME_TOKEN",
  "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
  "ACTIONS_ID_TOKEN_REQUEST_URL",
  "ACTIONS_CACHE_URL",
  "ACTIONS_RESULTS_URL",
  "INPUT_GITHUB-TOKEN",
  "INPUT_TOKEN",
];

/** `NAME` matches exactly, `PREFIX*` matches every name starting with PREFIX. */
export function matchesEnvPattern(name: string, pattern: string): boolean {
  return pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : name === pattern;
}

export interface AgentEnvOptions {
  /** Names or `PREFIX*` patterns the adapter passes through. */
  allow: readonly string[];
  /** Extra names from config (`env:` / `agent.env`). */
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
  const patterns = [...BASE_ENV_NAMES, ...opts.allow, ...(opts.extra ?? [])];
  const passed: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || NEVER_PASSED.includes(name.toUpperCase())) continue;
    if (patterns.some((p) => matchesEnvPattern(name, p))) passed[name] = value;
  }
  const set: Record<string, string> = {};
  for (const [name, value] of Object.entries(opts.set ?? {})) {
    if (!NEVER_PASSED.includes(name.toUpperCase())) set[name] = value;
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
