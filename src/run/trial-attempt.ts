/**
 * One attempt of one trial: its workspace prepared, the agent run with a scrubbed environment under a guard that
 * outlives the adapter's own timeout, and what the agent left read back (disk cap, written files, decoys and
 * risky tool calls) before the workspace is disposed.
 */
import { AGENT_WORKSPACE_MB, sandboxOptions } from "../agents/confine.js";
import { agentEnvFor, buildAgentEnv } from "../agents/env.js";
import { errorResult } from "../agents/result.js";
import {
  collectWrittenFiles,
  type PreparedWorkspace,
  type TrialWorkspaces,
  WORKSPACE_MAX_ENTRIES,
  workspaceUsage,
} from "../agents/workspace.js";
import type { AgentAdapter, AgentConfig, AgentResult, TrialRequest } from "../model/index.js";
import { withLeaks } from "../observe/leaks.js";
import { withToolCallActions } from "../observe/tool-calls.js";

const MIB = 1024 * 1024;

/** Time an adapter gets beyond the trial timeout to kill its process and report, before the runner gives up on it. */
const ADAPTER_GRACE_MS = 5_000;

/** What an attempt reads of the run's options. */
export interface AttemptOptions {
  agent: AgentConfig;
  repoDir: string;
  timeoutMs: number;
  /** Extra environment variable names passed to the agent (config `env:`). */
  extraEnv?: string[];
  signal?: AbortSignal;
}

function withGuard<T>(work: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(onTimeout()), ms);
  });
  return Promise.race([work, guard]).finally(() => clearTimeout(timer));
}

export class TrialAttempt {
  private readonly diskCapBytes: number;
  /** Scrubbed once per run (process.env is a live view into the C++ side); each trial adds its HOME. */
  private readonly envFor: (home: string) => Record<string, string>;

  constructor(
    private readonly adapter: AgentAdapter,
    /** Only adapters that run in a workspace have them (replays do not). */
    private readonly workspaces: TrialWorkspaces | undefined,
    private readonly opts: AttemptOptions,
  ) {
    this.diskCapBytes = (sandboxOptions(opts.agent.options).diskMb ?? AGENT_WORKSPACE_MB) * MIB;
    this.envFor = agentEnvFor({
      allow: adapter.envAllow,
      extra: [...(opts.agent.env ?? []), ...(opts.extraEnv ?? [])],
      source: { ...process.env },
    });
  }

  run(req: TrialRequest): Promise<AgentResult> {
    return this.workspaces ? this.inWorkspace(req, this.workspaces) : this.withoutWorkspace(req);
  }

  private crashed(e: unknown): AgentResult {
    return errorResult("crash", `adapter ${this.adapter.name} failed: ${(e as Error).message ?? e}`);
  }

  private withoutWorkspace(req: TrialRequest): Promise<AgentResult> {
    const { repoDir } = this.opts;
    const none = { dir: repoDir, home: repoDir, skillPaths: {} };
    const env = buildAgentEnv({ allow: [], home: repoDir });
    return this.adapter
      .run(req, {
        workspace: none,
        env,
        signal: this.opts.signal ?? new AbortController().signal,
        timeoutMs: this.opts.timeoutMs,
      })
      .catch((e: unknown) => this.crashed(e));
  }

  private async inWorkspace(req: TrialRequest, workspaces: TrialWorkspaces): Promise<AgentResult> {
    let ws: PreparedWorkspace;
    try {
      ws = workspaces.prepare(req);
    } catch (e) {
      return errorResult(
        "crash",
        `cannot prepare the workspace of ${req.skill}/${req.caseId}: ${(e as Error).message}`,
      );
    }
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    this.opts.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      return this.readBack(await this.guarded(req, ws, controller), ws);
    } finally {
      this.opts.signal?.removeEventListener("abort", onAbort);
      workspaces.dispose(ws);
    }
  }

  /** The adapter's run, given up on (and aborted) a grace period after its own timeout. */
  private guarded(
    req: TrialRequest,
    ws: PreparedWorkspace,
    controller: AbortController,
  ): Promise<AgentResult> {
    const { timeoutMs } = this.opts;
    // Decoy variables (decoys.ts) unless the trusted config forwards a real one of the same name.
    const env = { ...ws.decoys?.env, ...this.envFor(ws.home) };
    const run = this.adapter
      .run(req, { workspace: ws, env, signal: controller.signal, timeoutMs })
      .catch((e: unknown) => this.crashed(e));
    return withGuard(run, timeoutMs + ADAPTER_GRACE_MS, () => {
      controller.abort();
      return errorResult("timeout", `trial did not finish within ${timeoutMs} ms`, true);
    });
  }

  /** What the agent left: over the disk cap fails the trial; written files, decoys and risky tool calls read. */
  private readBack(result: AgentResult, ws: PreparedWorkspace): AgentResult {
    // A hostile agent may fill the runner's disk: what it left over its cap fails the trial (confine.ts).
    const cap = this.diskCapBytes;
    const usage = workspaceUsage([ws.dir, ws.home], cap);
    if (usage.over)
      return errorResult(
        "crash",
        `the agent left more than ${cap / MIB} MiB${usage.entries > WORKSPACE_MAX_ENTRIES ? ` or ${WORKSPACE_MAX_ENTRIES} files` : ""} in its workspace (the cap: agent.options.sandbox.diskMb)`,
      );
    if (!result.error && Object.keys(result.files).length === 0) {
      const written = collectWrittenFiles(ws);
      result.files = written.files;
      if (written.notes.length) result.notes = [...(result.notes ?? []), ...written.notes];
    }
    if (!ws.decoys) return result;
    const writable = sandboxOptions(this.opts.agent.options).writable ?? [];
    const paths = { workspace: ws.dir, home: ws.home, writable, decoyFiles: ws.decoys.files };
    return withToolCallActions(withLeaks(result, ws.decoys, ws.dir), paths);
  }
}
