import type { EnvName, NonEmptyString } from "./files.js";
import type { TrialRecord, TrialRequest } from "./trial.js";

/** A prepared, isolated directory for one trial. */
export interface Workspace {
  /** Absolute path; the agent's cwd. */
  dir: string;
  /** Temporary HOME for the agent. */
  home: string;
  /** Where skills were installed (absolute), per skill name; a shared catalogue's are in `skillsRoot`. */
  skillPaths: Record<string, string>;
  /**
   * Skills installed together in one folder (a trigger trial's shared catalogue, src/agents/catalogue.ts): each
   * name of `names` (install order) at `<dir>/<name>`. One index per catalogue, shared by its trials, rather than a
   * path per skill per trial (10,000 strings each at registry scale, issue #42). Read through `installedSkillDir`.
   */
  skillsRoot?: SkillsRoot;
  /** Decoy credentials planted for the trial (src/observe/decoys.ts). */
  decoys?: DecoySet;
  /**
   * Folders bound read-only into a confined agent's sandbox (`from` on the host at `to`, a path inside the
   * workspace): a trigger trial's shared catalogue (src/agents/catalogue.ts).
   */
  mounts?: { from: string; to: string }[];
}

export interface SkillsRoot {
  dir: string;
  names: ReadonlyMap<string, number>;
}

/** The folder skill `name` is installed at in `ws`, if it is installed there. */
export function installedSkillDir(
  ws: Pick<Workspace, "skillPaths" | "skillsRoot">,
  name: string,
): string | undefined {
  if (Object.hasOwn(ws.skillPaths, name)) return ws.skillPaths[name];
  return ws.skillsRoot?.names.has(name) ? `${ws.skillsRoot.dir}/${name}` : undefined;
}

/** Decoy credentials of one trial: none is real, so finding one where it does not belong is a leak. */
export interface DecoySet {
  /** Variables given to the agent: name → value. */
  env: Record<string, string>;
  /** Files planted (absolute paths). */
  files: string[];
  /** Every decoy value, by name (`aws-secret-access-key`). */
  values: { name: string; value: string }[];
}

export interface AgentRunContext {
  workspace: Workspace;
  /** Environment prepared for this adapter: scrubbed, only the names the adapter passes through. */
  env: Record<string, string>;
  signal: AbortSignal;
  timeoutMs: number;
}

/** The part of a TrialRecord an adapter produces; the runner fills in identity fields, duration and caching. */
export type AgentResult = Omit<TrialRecord, "key" | "skill" | "caseId" | "mode" | "trial" | "durationMs">;

/** A harness that can run one trial. Adapters register by name in `src/agents/registry.ts`. */
export interface AgentAdapter {
  readonly name: string;
  /** adapter + model + harness version: part of every cache key, so a model change never reuses answers. */
  identity(): Promise<string> | string;
  /** Where this harness expects skills, relative to the workspace, e.g. `.claude/skills`. */
  readonly skillsDir: string;
  /** Environment variable names (or prefixes ending in `*`) passed through to the agent. */
  readonly envAllow: string[];
  run(request: TrialRequest, ctx: AgentRunContext): Promise<AgentResult>;
  /**
   * False for adapters whose answers are not live agent calls (`replay`): the runner neither caches them nor
   * counts them as agent calls. Default true.
   */
  readonly cacheable?: boolean;
  /**
   * True when its agent is a process skillgate confines wherever the machine allows (src/agents/confine.ts): a
   * trigger trial's catalogue is then bound read-only into its workspace instead of written there.
   */
  readonly confined?: boolean;
  /** False for adapters that never touch a filesystem (`replay`): the runner skips the workspace. Default true. */
  readonly needsWorkspace?: boolean;
  /**
   * Why this harness's workspaces must not be in /dev/shm (its own sandbox mounts a fresh /dev over it), or
   * undefined when they may.
   */
  readonly avoidShm?: string;
}

/** Agent settings from config / CLI (`agent:` in `.skillgate.yml`). */
export interface AgentConfig {
  adapter: NonEmptyString;
  /** Executable or shell words, for claude-code / codex / command. */
  command?: NonEmptyString;
  model?: NonEmptyString;
  baseUrl?: NonEmptyString;
  /** Name of the env var holding the API key. */
  apiKeyEnv?: NonEmptyString;
  /** Extra environment variable names passed through. */
  env?: EnvName[];
  /** replay: directory of recordings, repository-relative. */
  recordings?: NonEmptyString;
  /** Adapter-specific extras. */
  options?: Record<string, unknown>;
}

/**
 * One cell of an agent matrix (`agents:` in `.skillgate.yml`): an agent configuration with a name. Every cell is
 * evaluated on its own (identity, cache and cost of its own) and the cells' reports are combined into one.
 */
export interface AgentCellConfig extends AgentConfig {
  /** Stable id of the cell: report keys, the `cell` input, cache folders. @pattern ^[a-z0-9][a-z0-9._-]{0,62}$ */
  name: string;
  /** Whether a new root in this cell fails the check (default true); `false`: reported, never blocking. */
  required?: boolean;
  /** Evaluated in a pull request only when it carries this label (always in sweeps and local runs). */
  label?: NonEmptyString;
}

/** A cell as the run uses it: its agent, and whether it decides the verdict. */
export interface AgentCell {
  name: string;
  agent: AgentConfig;
  required: boolean;
  label?: string;
}
