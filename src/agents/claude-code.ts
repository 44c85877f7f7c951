/**
 * `claude-code` adapter: the real `claude -p --output-format stream-json --verbose` in the trial workspace, skills
 * under `.claude/skills/<name>/`, a temporary HOME, only `ANTHROPIC_*` / `CLAUDE_CODE_*` (+ configured names).
 * Writes are allowed with `--permission-mode acceptEdits` plus an allowed-tools list, which also works as root
 * (where `bypassPermissions` is refused). Confined like every agent (confine.ts): its only way out is the egress
 * proxy to its model endpoint (`ANTHROPIC_BASE_URL`, else the Anthropic API) and the trusted config's
 * `sandbox.egress`; an http endpoint is given to it as the relay's loopback address inside its sandbox, an https one
 * through `HTTPS_PROXY` (TLS end to end).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { AgentAdapter, AgentConfig, AgentResult, ToolCall, TrialRequest } from "../model/index.js";
import { agentEgress, sandboxOptions } from "./confine.js";
import { agentCliError } from "./guidance.js";
import { priceUsage } from "./http-common.js";
import { runAgentProcess } from "./process.js";
import { registerAgent } from "./registry.js";
import { capOutput, emptyResult, errorForStatus, errorResult, tail } from "./result.js";
import { resolveCommand } from "./shell-words.js";
import { activatedSkill, qualifySkillNames } from "./skill-names.js";
import { claudeRoutingWatcher, stopNote, triggerStopPolicy } from "./trigger-stop.js";

const execFileP = promisify(execFile);

/** stream-json transcripts of long sessions are large; beyond this the transcript is cut and the trial fails. */
const CLAUDE_MAX_STDOUT_BYTES = 64 * 1024 * 1024;
/** Tools a trial may use without a prompt. Bash is in: skills often run their scripts. */
const DEFAULT_ALLOWED_TOOLS = ["Skill", "Read", "Write", "Edit", "Glob", "Grep", "Bash"];
/** Where Claude Code sends model requests when ANTHROPIC_BASE_URL is not set. */
export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";
/** Quiet, offline-friendly Claude Code: no telemetry, updates, error reports or non-essential calls. */
const CLAUDE_QUIET_ENV: Record<string, string> = {
  DISABLE_TELEMETRY: "1",
  DISABLE_AUTOUPDATER: "1",
  DISABLE_ERROR_REPORTING: "1",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
};

interface ParsedStream {
  result: AgentResult;
  /** The final `result` event was seen. */
  complete: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: stream-json events are free-form JSON
type Json = any;

function blockText(content: Json): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((b) => (typeof b?.text === "string" ? b.text : "")).join("");
  return "";
}

/** A token count or cost from the stream; anything but a finite non-negative number counts 0 (fuzzing found "10[object Object]"). */
function count(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0;
}

/** Reads Claude Code's stream-json: init skills, tool calls of every turn with their results, result, usage. */
export function parseClaudeStream(stdout: string): ParsedStream {
  const result = emptyResult();
  const byId = new Map<string, ToolCall>();
  const messageTurn = new Map<string, number>();
  /** Usage per assistant message (each event of a message repeats it; the last one counts). */
  const messageUsage = new Map<string, { input: number; output: number }>();
  let complete = false;
  let badLines = 0;
  for (const line of stdout.split("\n")) {
    if (!line.trim()) continue;
    let ev: Json;
    try {
      ev = JSON.parse(line);
    } catch {
      badLines++;
      continue;
    }
    if (ev?.type === "system" && ev.subtype === "init" && Array.isArray(ev.skills)) {
      result.skillsRegistered = ev.skills.map(String);
    } else if (ev?.type === "assistant" && Array.isArray(ev.message?.content)) {
      // One assistant message may arrive as several events (one per content block) sharing its id.
      const id = String(ev.message.id ?? `anon-${messageTurn.size}`);
      if (!messageTurn.has(id)) messageTurn.set(id, messageTurn.size);
      const turn = messageTurn.get(id)!;
      const mu = ev.message.usage;
      if (mu && typeof mu === "object") {
        messageUsage.set(id, {
          input:
            count(mu.input_tokens) +
            count(mu.cache_creation_input_tokens) +
            count(mu.cache_read_input_tokens),
          output: count(mu.output_tokens),
        });
      }
      for (const block of ev.message.content) {
        if (block?.type !== "tool_use") continue;
        const call: ToolCall = { name: String(block.name), input: block.input ?? null, turn };
        result.toolCalls.push(call);
        if (block.id) byId.set(String(block.id), call);
      }
    } else if (ev?.type === "user" && Array.isArray(ev.message?.content)) {
      for (const block of ev.message.content) {
        if (block?.type !== "tool_result") continue;
        const call = byId.get(String(block.tool_use_id));
        if (!call) continue;
        call.output = blockText(block.content);
        if (block.is_error) call.isError = true;
      }
    } else if (ev?.type === "result") {
      complete = true;
      result.output = typeof ev.result === "string" ? ev.result : "";
      const u = ev.usage ?? {};
      result.usage = {
        inputTokens:
          count(u.input_tokens) + count(u.cache_creation_input_tokens) + count(u.cache_read_input_tokens),
        outputTokens: count(u.output_tokens),
        costUsd: count(ev.total_cost_usd),
      };
      if (ev.is_error || (typeof ev.subtype === "string" && ev.subtype !== "success")) {
        const status = typeof ev.api_error_status === "number" ? ev.api_error_status : undefined;
        const detail = tail(result.output || String(ev.subtype), 300);
        // The reply text of an API error ("API Error: 400 …") must never be graded as an answer.
        result.error = status
          ? errorForStatus(status, detail)
          : { kind: "protocol", message: `claude reported an error (${ev.subtype}): ${detail}` };
      }
    }
  }
  if (!complete) {
    // No result event (a trigger trial stopped at its routing decision, or a crash): the turns streamed so far.
    // Each assistant event carries its message's usage as the message started: input and cache tokens exact,
    // output tokens the start's count (1 with the scripted model, whose reply has 20), so a lower bound.
    for (const u of messageUsage.values()) {
      result.usage.inputTokens += u.input;
      result.usage.outputTokens += u.output;
    }
  }
  if (badLines > 0) result.notes = [`${badLines} non-JSON line(s) in the stream ignored`];
  const activated = new Set<string>();
  for (const call of result.toolCalls) {
    const name = activatedSkill(call);
    if (name) activated.add(name);
  }
  result.skillsActivated = [...activated];
  return { result, complete };
}

function buildClaudeArgs(config: AgentConfig, request: TrialRequest): string[] {
  const allowed = Array.isArray(config.options?.allowedTools)
    ? (config.options.allowedTools as unknown[]).map(String)
    : DEFAULT_ALLOWED_TOOLS;
  const args = ["-p", "--output-format", "stream-json", "--verbose", "--permission-mode", "acceptEdits"];
  args.push("--allowedTools", allowed.join(" "));
  if (config.model) args.push("--model", config.model);
  if (typeof config.options?.maxTurns === "number") args.push("--max-turns", String(config.options.maxTurns));
  if (request.constraints?.length) args.push("--append-system-prompt", request.constraints.join("\n"));
  return args;
}

function createClaudeCodeAgent(config: AgentConfig, ctx: { repoDir: string }): AgentAdapter {
  const { file, args: baseArgs } = resolveCommand(config.command ?? "claude", ctx.repoDir);
  let identity: Promise<string> | undefined;
  const box = sandboxOptions(config.options);
  const stopPolicy = triggerStopPolicy(config);
  return {
    name: "claude-code",
    skillsDir: ".claude/skills",
    confined: true,
    envAllow: ["ANTHROPIC_*", "CLAUDE_CODE_*"],
    identity() {
      identity ??= execFileP(file, [...baseArgs, "--version"], { timeout: 30_000 }).then(
        // The stop policy decides what a trigger trial records: a cached answer is reused under the same one only.
        ({ stdout }) =>
          `claude-code/${stdout.trim().split(/\s+/)[0]}/${config.model ?? "default"}/trigger-stop=${stopPolicy}`,
        (e: Error) => {
          throw agentCliError("claude-code", file, e);
        },
      );
      return identity;
    },
    async run(request, run) {
      const baseUrl = run.env.ANTHROPIC_BASE_URL || ANTHROPIC_DEFAULT_BASE_URL;
      let egress: Awaited<ReturnType<typeof agentEgress>>;
      try {
        egress = await agentEgress([baseUrl, ...box.egress]);
      } catch (e) {
        return errorResult("crash", `claude's model endpoint: ${(e as Error).message}`);
      }
      const env: Record<string, string> = {
        ...run.env,
        ...CLAUDE_QUIET_ENV,
        // Its own temp folder: Claude Code refuses a /tmp/claude-<uid> that another user made.
        CLAUDE_CODE_TMPDIR: `${run.workspace.home}/tmp`,
      };
      if (egress) {
        Object.assign(env, egress.env);
        env.ANTHROPIC_BASE_URL = egress.sandboxUrl(baseUrl);
      }
      const watcher =
        request.mode === "trigger" && stopPolicy !== "off" ? claudeRoutingWatcher(stopPolicy) : undefined;
      const p = await runAgentProcess(file, [...baseArgs, ...buildClaudeArgs(config, request)], {
        cwd: run.workspace.dir,
        env,
        stdin: request.prompt,
        timeoutMs: run.timeoutMs,
        signal: run.signal,
        maxStdoutBytes: CLAUDE_MAX_STDOUT_BYTES,
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
      if (p.spawnError) return errorResult("crash", `cannot start claude (${file}): ${p.spawnError}`);
      // Stopped at the routing decision: the record is the stream up to it, whatever else was in the pipe.
      const decision = p.stopped ? watcher?.decision : undefined;
      const { result, complete } = parseClaudeStream(decision ? p.stdout.slice(0, decision.end) : p.stdout);
      if (p.observed) result.observed = p.observed;
      result.skillsActivated = qualifySkillNames(result.skillsActivated, request.install);
      if (result.skillsRegistered)
        result.skillsRegistered = qualifySkillNames(result.skillsRegistered, request.install);
      const notes = result.notes ?? [];
      if (p.egressRefused) {
        notes.push(`egress refused: ${p.egressRefused.join(", ")}`);
        result.notes = notes;
      }
      if (decision) {
        notes.push(stopNote(decision, stopPolicy));
        // Claude Code reports cost only with its result event: a stopped trial is priced from `options.pricing`
        // (0 without it). Its tokens are the streamed messages' own figures (see parseClaudeStream).
        result.usage = priceUsage(config, result.usage.inputTokens, result.usage.outputTokens);
      }
      if (p.timedOut)
        return errorResult("timeout", `claude did not finish within ${run.timeoutMs} ms`, true, result);
      if (p.aborted) return errorResult("crash", "claude aborted", false, result);
      if (p.stdoutTruncated) {
        return errorResult(
          "protocol",
          `claude transcript larger than ${CLAUDE_MAX_STDOUT_BYTES} bytes`,
          false,
          result,
        );
      }
      if (!complete && !decision) {
        const how =
          p.exitCode === 0 ? "exited 0" : p.signal ? `was killed by ${p.signal}` : `exited ${p.exitCode}`;
        return errorResult(
          p.exitCode === 0 ? "protocol" : "crash",
          `claude ${how} without a result event${p.stderr.trim() ? `: ${tail(p.stderr, 500)}` : ""}`,
          false,
          result,
        );
      }
      result.output = capOutput(result.output, notes);
      if (notes.length) result.notes = notes;
      if (result.error) return result;
      // A skill the harness did not register can never fire: that is a broken setup, not a routing miss.
      if (request.mode !== "baseline" && request.install.some((s) => s.name === request.skill)) {
        const registered = result.skillsRegistered ?? [];
        if (!registered.some((s) => s === request.skill || s.endsWith(`:${request.skill}`))) {
          return errorResult(
            "unregistered-skill",
            `skill "${request.skill}" is not among the skills claude registered (${registered.join(", ") || "none"}); check its SKILL.md frontmatter`,
            false,
            result,
          );
        }
      }
      return result;
    },
  };
}

registerAgent("claude-code", createClaudeCodeAgent);
