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
  const source = opts.source ?? process.env;
  const patterns = [...BASE_ENV_NAMES, ...opts.allow, ...(opts.extra ?? [])];
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || NEVER_PASSED.includes(name.toUpperCase())) continue;
    if (patterns.some((p) => matchesEnvPattern(name, p))) env[name] = value;
  }
  env.HOME = opts.home;
  env.XDG_CONFIG_HOME = `${opts.home}/.config`;
  env.XDG_CACHE_HOME = `${opts.home}/.cache`;
  for (const [name, value] of Object.entries(opts.set ?? {})) {
    if (!NEVER_PASSED.includes(name.toUpperCase())) env[name] = value;
  }
  return env;
}
