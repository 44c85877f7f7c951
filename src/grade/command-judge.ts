/**
 * A `command` judge: any program grades the natural-language checks, with the protocol of command agents
 * (docs/agent-protocol.md). It runs confined in an empty folder of its own with a temporary HOME, no network and
 * the agents' scrubbed environment (`SKILLGATE_MODE=judge`); stdin is the judge's instructions and the trial (the
 * same text a hosted judge is sent); stdout is the verdict `{"passed": …, "evidence": "…"}`, or a command reply
 * (plain text or `{"output": …}`) whose output holds it. Anything else, a crash or a timeout is an error of the
 * check, never a pass. Grading sits above the agents' layer, so it may use their process runner.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseCommandOutput } from "../agents/command.js";
import { sandboxOptions } from "../agents/confine.js";
import { buildAgentEnv } from "../agents/env.js";
import { runAgentProcess } from "../agents/process.js";
import { tail } from "../agents/result.js";
import { resolveCommand } from "../agents/shell-words.js";
import type { AgentConfig } from "../model/index.js";
import { forgetRunFolder, registerRunFolder } from "../sandbox/isolation/run-folder.js";
import { createJudge, JUDGE_SYSTEM_PROMPT, type Judge, judgePrompt, parseVerdict } from "./judge.js";

const COMMAND_JUDGE_TIMEOUT_MS = 120_000;
const COMMAND_JUDGE_MAX_STDOUT_BYTES = 1024 * 1024;

/** The judge of a configuration: a command one, else a hosted model (grade/judge.ts). `dir`: the trusted tree. */
export function judgeFor(config: AgentConfig, dir: string): Judge {
  return config.adapter === "command" ? createCommandJudge(config, dir) : createJudge(config);
}

/** The verdict in a judge command's stdout: the object itself, or the output of a command reply. */
function verdictOf(stdout: string): { passed: boolean; evidence: string } {
  try {
    const direct = JSON.parse(stdout.trim()) as { passed?: unknown };
    if (direct && typeof direct.passed === "boolean") return parseVerdict(stdout);
  } catch {
    // not a JSON object: plain text or a reply
  }
  const reply = parseCommandOutput(stdout);
  if ("protocolError" in reply) throw new Error(`judge command stdout: ${reply.protocolError}`);
  return parseVerdict(reply.output);
}

export function createCommandJudge(config: AgentConfig, dir: string): Judge {
  if (!config.command) throw new Error('judge adapter "command" needs `command` (shell words)');
  const { file, args } = resolveCommand(config.command, dir);
  const box = sandboxOptions(config.options);
  return {
    async grade(expectation, output, context) {
      const scratch = mkdtempSync(join(tmpdir(), "skillgate-judge-"));
      const workspace = { dir: join(scratch, "work"), home: join(scratch, "home"), skillPaths: {} };
      mkdirSync(workspace.dir);
      mkdirSync(workspace.home);
      // Made here for this one run: the only folders the sandbox uid may be given.
      registerRunFolder(workspace.dir);
      registerRunFolder(workspace.home);
      try {
        const env = buildAgentEnv({
          allow: [],
          extra: config.env ?? [],
          home: workspace.home,
          set: { SKILLGATE_MODE: "judge" },
        });
        const p = await runAgentProcess(file, args, {
          cwd: workspace.dir,
          env,
          stdin: `${JUDGE_SYSTEM_PROMPT}\n\n${judgePrompt(expectation, output, context)}\n`,
          timeoutMs: COMMAND_JUDGE_TIMEOUT_MS,
          maxStdoutBytes: COMMAND_JUDGE_MAX_STDOUT_BYTES,
          confine: {
            workspace,
            repoDir: dir,
            readOnly: box.readOnly,
            writable: box.writable,
            ...(box.memoryMb !== undefined ? { memoryMb: box.memoryMb } : {}),
          },
        });
        if (p.spawnError) throw new Error(`cannot start judge command ${file}: ${p.spawnError}`);
        if (p.timedOut) throw new Error(`judge command did not finish within ${COMMAND_JUDGE_TIMEOUT_MS} ms`);
        if (p.exitCode !== 0)
          throw new Error(
            `judge command ${p.signal ? `was killed by ${p.signal}` : `exited with code ${p.exitCode}`}${p.stderr.trim() ? `: ${tail(p.stderr, 500)}` : ""}`,
          );
        if (p.stdoutTruncated) throw new Error("judge command printed more than 1 MiB: its verdict was cut");
        return verdictOf(p.stdout);
      } finally {
        forgetRunFolder(workspace.dir);
        forgetRunFolder(workspace.home);
        rmSync(scratch, { recursive: true, force: true });
      }
    },
  };
}
