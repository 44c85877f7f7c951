/**
 * `command` adapter: any CLI (docs/agent-protocol.md). Runs in the trial workspace with the skills under
 * `.agents/skills/<name>/`, the prompt on stdin (the baseline constraint block before it), env SKILLGATE_CASE /
 * SKILLGATE_TRIAL / SKILLGATE_SEED / SKILLGATE_MODE / SKILLGATE_SKILL. stdout is plain text (the output) or one
 * JSON object that fits command-reply.schema.json.
 */
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { unknownKeyHint } from "../detect/suggest.js";
import type {
  AgentAdapter,
  AgentConfig,
  AgentResult,
  ToolCall,
  TrialRequest,
  Usage,
} from "../model/index.js";
import { ZERO_USAGE } from "../model/index.js";
import commandReplySchema from "./command-reply.schema.json" with { type: "json" };
import { sandboxOptions } from "./confine.js";
import { type AgentProcessResult, runAgentProcess } from "./process.js";
import { registerAgent } from "./registry.js";
import { capOutput, emptyResult, errorResult, tail, withObservation } from "./result.js";
import { resolveCommand } from "./shell-words.js";

/** stdout kept from a command agent; beyond it the output is cut (and a JSON reply cannot be read). */
const COMMAND_MAX_STDOUT_BYTES = 4 * 1024 * 1024;

export function constraintBlock(constraints: readonly string[] | undefined): string {
  if (!constraints || constraints.length === 0) return "";
  return `Constraints for this task:\n${constraints.map((c) => `- ${c}`).join("\n")}\n\n`;
}

/** The reply's JSON Schema, the protocol's contract (docs/agent-protocol.md). */
export const COMMAND_REPLY_SCHEMA = commandReplySchema;
let validateReply: ValidateFunction | undefined;

/** `/toolCalls/0/name` → `toolCalls[0].name`. */
function where(instancePath: string): string {
  return instancePath
    .split("/")
    .slice(1)
    .map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`))
    .join("");
}

/** One ajv error said plainly, with the key meant for an unknown one. */
function explainReplyError(e: ErrorObject): string {
  const at = where(e.instancePath);
  const params = e.params as Record<string, unknown>;
  if (e.keyword === "required")
    return `${at ? `${at} lacks` : "JSON reply lacks"} a${params.missingProperty === "output" ? " string" : ""} "${params.missingProperty}"`;
  if (e.keyword === "additionalProperties") {
    const key = String(params.additionalProperty);
    const known = Object.keys((e.parentSchema as { properties?: object })?.properties ?? {});
    return `unknown key "${key}"${at ? ` in ${at}` : ""}${unknownKeyHint(key, known)}`;
  }
  return `"${at}" ${e.message ?? "is invalid"}`;
}

/**
 * Reads the command protocol: stdout is plain text, or one JSON object that fits command-reply.schema.json.
 * Returns a protocol error message when stdout is a JSON object that does not fit.
 */
export function parseCommandOutput(stdout: string): AgentResult | { protocolError: string } {
  const trimmed = stdout.trim();
  if (!trimmed.startsWith("{") || !trimmed.endsWith("}")) return { ...emptyResult(), output: stdout };
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    // Text that merely looks like an object (a code snippet) is plain output.
    return { ...emptyResult(), output: stdout };
  }
  validateReply ??= new Ajv({ allErrors: true, strict: false, verbose: true }).compile(COMMAND_REPLY_SCHEMA);
  if (!validateReply(parsed)) {
    const errors = (validateReply.errors ?? []).slice(0, 3).map(explainReplyError);
    return {
      protocolError: `${errors.join("; ")} (the reply's schema: src/agents/command-reply.schema.json)`,
    };
  }
  const o = parsed as CommandReply;
  const toolCalls: ToolCall[] = (o.toolCalls ?? []).map((call) => ({
    name: call.name,
    input: call.input ?? null,
    ...(call.output !== undefined ? { output: call.output } : {}),
    ...(call.isError !== undefined ? { isError: call.isError } : {}),
    turn: call.turn ?? 0,
  }));
  const usage: Usage = {
    inputTokens: o.usage?.inputTokens ?? 0,
    outputTokens: o.usage?.outputTokens ?? 0,
    costUsd: o.usage?.costUsd ?? 0,
  };
  return { ...emptyResult(), output: o.output, toolCalls, skillsActivated: o.skillsActivated ?? [], usage };
}

/** A reply that fits the schema. */
interface CommandReply {
  output: string;
  skillsActivated?: string[];
  toolCalls?: { name: string; input?: unknown; output?: string; isError?: boolean; turn?: number }[];
  usage?: Partial<Usage>;
}

/**
 * The command words, each word that names a file (the script itself, `node agent.mjs`'s script) by its content
 * instead of its path: editing the agent script invalidates its cached answers, and the same script read from
 * another checkout (a temporary worktree of the base, the default branch's run) keeps them.
 */
async function commandIdentity(
  file: string,
  args: string[],
  repoDir: string,
  config: AgentConfig,
): Promise<string> {
  const h = createHash("sha256");
  for (const word of [file, ...args]) {
    const path = isAbsolute(word) ? word : resolve(repoDir, word);
    let content: Buffer | undefined;
    try {
      if ((await stat(path)).isFile()) content = await readFile(path);
    } catch {
      // not a file: a flag or a program on PATH
    }
    h.update(content ? `file:${createHash("sha256").update(content).digest("hex")}\0` : `word:${word}\0`);
  }
  const version = typeof config.options?.version === "string" ? `@${config.options.version}` : "";
  return `command:${h.digest("hex").slice(0, 16)}${config.model ? `/${config.model}` : ""}${version}`;
}

function createCommandAgent(config: AgentConfig, ctx: { repoDir: string }): AgentAdapter {
  if (!config.command) throw new Error('agent adapter "command" needs `command` (shell words)');
  const { file, args } = resolveCommand(config.command, ctx.repoDir);
  let identity: Promise<string> | undefined;
  const box = sandboxOptions(config.options);
  return {
    name: "command",
    skillsDir: ".agents/skills",
    envAllow: [],
    confined: true,
    identity: () => {
      identity ??= commandIdentity(file, args, ctx.repoDir, config);
      return identity;
    },
    async run(request, run) {
      const env = {
        ...run.env,
        SKILLGATE_CASE: request.caseId,
        SKILLGATE_TRIAL: String(request.trial),
        SKILLGATE_SEED: String(request.seed),
        SKILLGATE_MODE: request.mode,
        SKILLGATE_SKILL: request.skill,
      };
      const p = await runAgentProcess(file, args, {
        cwd: run.workspace.dir,
        env,
        stdin: constraintBlock(request.constraints) + request.prompt,
        timeoutMs: run.timeoutMs,
        signal: run.signal,
        maxStdoutBytes: COMMAND_MAX_STDOUT_BYTES,
        // No network: a command agent's `sandbox.egress` is not read (it could not be told a relayed URL).
        confine: {
          workspace: run.workspace,
          repoDir: ctx.repoDir,
          readOnly: box.readOnly,
          writable: box.writable,
          memoryMb: box.memoryMb,
        },
      });
      return withObservation(p, commandResult(p, request, file, run.timeoutMs));
    },
  };
}

/** The trial's result from the command's exit, stdout and stderr (docs/agent-protocol.md). */
function commandResult(
  p: AgentProcessResult,
  request: TrialRequest,
  file: string,
  timeoutMs: number,
): AgentResult {
  if (p.spawnError) return errorResult("crash", `cannot start agent command ${file}: ${p.spawnError}`);
  if (p.timedOut) return errorResult("timeout", `agent command did not finish within ${timeoutMs} ms`, true);
  if (p.aborted) return errorResult("crash", "agent command aborted");
  if (p.exitCode !== 0) {
    const how = p.signal ? `was killed by ${p.signal}` : `exited with code ${p.exitCode}`;
    return errorResult("crash", `agent command ${how}${p.stderr.trim() ? `: ${tail(p.stderr, 500)}` : ""}`);
  }
  const notes: string[] = [];
  // A cut answer cannot be graded honestly; an empty one means the agent stopped early.
  if (p.stdoutTruncated) {
    // Kept for display (capped, with a note) but never graded: a cut answer is an error.
    const output = capOutput(p.stdout, notes);
    notes.push(`stdout cut at ${COMMAND_MAX_STDOUT_BYTES} bytes`);
    return errorResult(
      "protocol",
      `agent command printed more than ${COMMAND_MAX_STDOUT_BYTES} bytes on stdout: the answer was cut, so it is not graded`,
      false,
      { ...emptyResult(), output, notes },
    );
  }
  if (p.stdout.trim() === "")
    return errorResult("protocol", "agent command exited 0 but printed nothing on stdout");
  const parsed = parseCommandOutput(p.stdout);
  if ("protocolError" in parsed)
    return errorResult("protocol", `agent command stdout: ${parsed.protocolError}`);
  // Baselines have nothing installed: activating a skill there is contamination (the runner's scan).
  if (request.mode !== "baseline") {
    const installed = new Set(request.install.map((s) => s.name));
    const unknown = parsed.skillsActivated.filter((s) => !installed.has(s));
    if (unknown.length)
      return errorResult(
        "unregistered-skill",
        `agent reported activating ${unknown.join(", ")}, which ${unknown.length > 1 ? "were" : "was"} not installed (installed: ${[...installed].join(", ") || "none"})`,
      );
  }
  parsed.output = capOutput(parsed.output, notes);
  if (notes.length) parsed.notes = notes;
  if (parsed.usage === ZERO_USAGE) parsed.usage = { ...ZERO_USAGE };
  return parsed;
}

registerAgent("command", createCommandAgent);
