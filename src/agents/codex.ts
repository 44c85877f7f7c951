/**
 * `codex` adapter: the real `codex exec --json` in the trial workspace, skills under `.agents/skills/<name>/`,
 * `CODEX_HOME` inside the temporary HOME with a written `config.toml` (Codex ignores OPENAI_BASE_URL: the model
 * URL goes into a provider there). Codex has no Skill tool: a skill fires when a command reads its SKILL.md.
 * Its own retries are off (`request_max_retries = 0`): the runner retries transient faults, within the budget.
 *
 * Confined like every agent (confine.ts), with `-s danger-full-access`: skillgate's sandbox replaces Codex's own
 * (which would need a user namespace inside ours, and mounts a new /dev). Its only way out is the egress proxy to
 * the provider's `base_url` (an http one is written into config.toml as the relay's loopback address inside the
 * sandbox, an https one reached through `HTTPS_PROXY`). Unconfined (isolation `none`), Codex's own sandbox is its
 * only one: `options.sandbox`, default `workspace-write`.
 */
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import type { AgentAdapter, AgentConfig, AgentResult, ToolCall, TrialError } from "../model/index.js";
import { constraintBlock } from "./command.js";
import { agentEgress, agentsConfined, sandboxOptions } from "./confine.js";
import { agentCliError } from "./guidance.js";
import { priceUsage } from "./http-common.js";
import { runAgentProcess } from "./process.js";
import { registerAgent } from "./registry.js";
import { capOutput, emptyResult, errorResult, tail } from "./result.js";
import { resolveCommand } from "./shell-words.js";
import { activatedSkill, qualifySkillNames } from "./skill-names.js";
import { codexRoutingWatcher, stopNote, triggerStopPolicy } from "./trigger-stop.js";

const execFileP = promisify(execFile);

const CODEX_MAX_STDOUT_BYTES = 64 * 1024 * 1024;
const CODEX_DEFAULT_BASE_URL = "https://api.openai.com/v1";

// biome-ignore lint/suspicious/noExplicitAny: JSONL events are free-form JSON
type Json = any;

const tomlString = (s: string) => JSON.stringify(s);

/**
 * `config.toml` pointing Codex at the configured Responses API endpoint (or `baseUrl`, where the sandbox relays
 * it) with the key from `env_key`.
 */
function codexConfigToml(config: AgentConfig, baseUrl = config.baseUrl ?? CODEX_DEFAULT_BASE_URL): string {
  // The provider's name is in the agent's HOME: an ordinary one (nothing there may say it is being evaluated).
  const lines = [`model_provider = "proxy"`];
  if (config.model) lines.push(`model = ${tomlString(config.model)}`);
  lines.push(
    "",
    "[model_providers.proxy]",
    `name = "proxy"`,
    `base_url = ${tomlString(baseUrl.replace(/\/+$/, ""))}`,
    `wire_api = "responses"`,
    `env_key = ${tomlString(config.apiKeyEnv ?? "OPENAI_API_KEY")}`,
    "request_max_retries = 0",
    "stream_max_retries = 0",
  );
  return `${lines.join("\n")}\n`;
}

function classify(message: string): TrialError {
  if (/\b429\b|rate.?limit|too many requests/i.test(message))
    return { kind: "rate-limit", message, transient: true };
  if (
    /\b5\d\d\b|overloaded|internal server error|service unavailable|stream disconnected|connection/i.test(
      message,
    )
  ) {
    return { kind: "crash", message, transient: true };
  }
  return { kind: "protocol", message };
}

/** Reads `codex exec --json` events: commands and file changes as tool calls, the last agent message as output. */
export function parseCodexEvents(stdout: string): { result: AgentResult; completed: boolean } {
  const result = emptyResult();
  const notes: string[] = [];
  let completed = false;
  let inTok = 0;
  let outTok = 0;
  let turn = 0;
  /** Commands started and not (yet) completed: a trial stopped at its routing decision ends with one. */
  const started = new Map<string, Json>();
  for (const line of stdout.split("\n")) {
    if (!line.trim()) continue;
    let ev: Json;
    try {
      ev = JSON.parse(line);
    } catch {
      continue;
    }
    if (ev?.type === "item.started" && ev.item?.type === "command_execution") {
      started.set(String(ev.item.id), ev.item);
    } else if (ev?.type === "item.completed" && ev.item) {
      const item = ev.item;
      started.delete(String(item.id));
      let call: ToolCall | undefined;
      if (item.type === "agent_message") result.output = String(item.text ?? "");
      else if (item.type === "command_execution") {
        call = {
          name: "command_execution",
          input: { command: String(item.command ?? "") },
          output: String(item.aggregated_output ?? ""),
          ...(typeof item.exit_code === "number" && item.exit_code !== 0 ? { isError: true } : {}),
          turn: turn++,
        };
      } else if (item.type === "file_change") {
        call = {
          name: "file_change",
          input: { changes: item.changes ?? [] },
          ...(item.status === "failed" ? { isError: true } : {}),
          turn: turn++,
        };
      } else if (item.type === "mcp_tool_call" || item.type === "web_search") {
        call = {
          name: String(item.tool ?? item.type),
          input: item.arguments ?? item.query ?? null,
          turn: turn++,
        };
      } else if (item.type === "error") notes.push(`codex: ${String(item.message ?? "")}`);
      if (call) result.toolCalls.push(call);
    } else if (ev?.type === "turn.completed") {
      completed = true;
      inTok += Number(ev.usage?.input_tokens ?? 0);
      outTok += Number(ev.usage?.output_tokens ?? 0);
    } else if (ev?.type === "turn.failed") {
      result.error = classify(`codex turn failed: ${String(ev.error?.message ?? "unknown error")}`);
    } else if (ev?.type === "error" && !result.error) {
      result.error = classify(`codex error: ${String(ev.message ?? "unknown error")}`);
    }
  }
  for (const item of started.values()) {
    result.toolCalls.push({
      name: "command_execution",
      input: { command: String(item.command ?? "") },
      turn: turn++,
    });
  }
  result.usage = { inputTokens: inTok, outputTokens: outTok, costUsd: 0 };
  const activated = new Set<string>();
  for (const c of result.toolCalls) {
    if (c.name !== "command_execution") continue;
    const name = activatedSkill({
      ...c,
      name: "Read",
      input: { path: (c.input as { command: string }).command },
    });
    if (name) activated.add(name);
  }
  result.skillsActivated = [...activated];
  if (notes.length) result.notes = notes;
  return { result, completed };
}

function createCodexAgent(config: AgentConfig, ctx: { repoDir: string }): AgentAdapter {
  const { file, args: baseArgs } = resolveCommand(config.command ?? "codex", ctx.repoDir);
  const configured = typeof config.options?.sandbox === "string" ? config.options.sandbox : "workspace-write";
  const box = sandboxOptions(config.options);
  const baseUrl = config.baseUrl ?? CODEX_DEFAULT_BASE_URL;
  const stopPolicy = triggerStopPolicy(config);
  /** Codex's own sandbox mode: off inside skillgate's (known once `identity()` has resolved). */
  let sandbox: string | undefined;
  const sandboxMode = async () => {
    sandbox ??= (await agentsConfined()) ? "danger-full-access" : configured;
    return sandbox;
  };
  let identity: Promise<string> | undefined;
  return {
    name: "codex",
    skillsDir: ".agents/skills",
    confined: true,
    /**
     * Codex's bubblewrap sandbox mounts a new /dev, hiding a workspace (and its arg0 helper) kept in /dev/shm. The
     * runner reads this after `identity()`, which settles the mode; before, the answer is the cautious one.
     */
    get avoidShm() {
      const mode = sandbox ?? configured;
      return mode === "danger-full-access" ? undefined : `codex's ${mode} sandbox mounts its own /dev`;
    },
    envAllow: ["OPENAI_*"],
    identity() {
      identity ??= Promise.all([
        execFileP(file, [...baseArgs, "--version"], { timeout: 30_000 }),
        sandboxMode(),
      ]).then(
        ([{ stdout }]) =>
          `codex/${stdout.trim().split(/\s+/).at(-1)}/${config.model ?? "default"}/${config.baseUrl ?? "openai"}/trigger-stop=${stopPolicy}`,
        (e: Error) => {
          throw agentCliError("codex", file, e);
        },
      );
      return identity;
    },
    async run(request, run) {
      let egress: Awaited<ReturnType<typeof agentEgress>>;
      try {
        egress = await agentEgress([baseUrl, ...box.egress]);
      } catch (e) {
        return errorResult("crash", `codex's model endpoint: ${(e as Error).message}`);
      }
      const codexHome = join(run.workspace.home, ".codex");
      await mkdir(codexHome, { recursive: true });
      await writeFile(
        join(codexHome, "config.toml"),
        codexConfigToml(config, egress ? egress.sandboxUrl(baseUrl) : baseUrl),
      );
      const args = [...baseArgs, "exec", "--json", "--skip-git-repo-check", "-s", await sandboxMode()];
      if (config.model) args.push("-m", config.model);
      args.push("-");
      const watcher =
        request.mode === "trigger" && stopPolicy !== "off" ? codexRoutingWatcher(stopPolicy) : undefined;
      const p = await runAgentProcess(file, args, {
        cwd: run.workspace.dir,
        env: { ...run.env, CODEX_HOME: codexHome, ...(egress?.env ?? {}) },
        stdin: constraintBlock(request.constraints) + request.prompt,
        timeoutMs: run.timeoutMs,
        signal: run.signal,
        maxStdoutBytes: CODEX_MAX_STDOUT_BYTES,
        ...(watcher ? { watch: (t: string) => watcher.feed(t) } : {}),
        confine: {
          workspace: run.workspace,
          repoDir: ctx.repoDir,
          readOnly: box.readOnly,
          writable: box.writable,
          memoryMb: box.memoryMb,
          ...(egress ? { egress } : {}),
        },
      });
      if (p.spawnError) return errorResult("crash", `cannot start codex (${file}): ${p.spawnError}`);
      // Stopped at the routing decision: the record is the stream up to it, whatever else was in the pipe.
      const decision = p.stopped ? watcher?.decision : undefined;
      const { result, completed } = parseCodexEvents(decision ? p.stdout.slice(0, decision.end) : p.stdout);
      if (p.observed) result.observed = p.observed;
      if (decision) {
        // Codex reports usage only when its turn completes: a trial stopped before has none to record.
        result.notes = [
          ...(result.notes ?? []),
          stopNote(decision, stopPolicy),
          "codex reports no usage before its turn ends",
        ];
      }
      if (p.egressRefused)
        result.notes = [...(result.notes ?? []), `egress refused: ${p.egressRefused.join(", ")}`];
      result.skillsActivated = qualifySkillNames(result.skillsActivated, request.install);
      const u = result.usage;
      result.usage = priceUsage(config, u.inputTokens, u.outputTokens);
      if (p.timedOut)
        return errorResult("timeout", `codex did not finish within ${run.timeoutMs} ms`, true, result);
      if (p.aborted) return errorResult("crash", "codex aborted", false, result);
      if (result.error) return result;
      if (!completed && !decision) {
        return errorResult(
          "crash",
          `codex ${p.exitCode === 0 ? "exited 0" : `exited ${p.exitCode ?? p.signal}`} without completing its turn${p.stderr.trim() ? `: ${tail(p.stderr, 500)}` : ""}`,
          false,
          result,
        );
      }
      const notes = result.notes ?? [];
      result.output = capOutput(result.output, notes);
      if (notes.length) result.notes = notes;
      return result;
    },
  };
}

registerAgent("codex", createCodexAgent);
