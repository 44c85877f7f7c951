/**
 * A run whose first trials all fail the same way has a set-up fault (a wrong script path, a program that is not
 * installed, a missing API key), not an agent giving wrong answers: running the rest would only repeat it, at the
 * price of every trial. The watch sees live trials as they end; when the first `FIRST_TRIALS_WATCHED` have all
 * failed with one signature, it says what failed and what to change, and no further trial starts. One success
 * among them turns it off for the run. Transient faults (timeouts, rate limits, 5xx: retried already) are passed
 * over: they depend on the moment and the machine's load, not on the set-up.
 */
import type { AgentConfig, TrialError } from "../model/index.js";

/** How many first trials must fail alike before the run stops. */
export const FIRST_TRIALS_WATCHED = 3;

/** Kinds that are findings about an answer, not a set-up fault. */
const NOT_SETUP_KINDS = new Set<TrialError["kind"]>(["contaminated", "budget"]);

/** The message with what differs from trial to trial (workspace paths, numbers) taken out. */
function failureSignature(error: TrialError): string {
  const message = error.message.replace(/\/[^\s'"`]*skillgate-[^\s'"`]*/g, "<path>").replace(/\d+/g, "#");
  return `${error.kind}\0${message}`;
}

/** The first line of a message, and the first later line that names an error (a stack trace's `Error: …`). */
export function headline(message: string): string {
  const lines = message
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const first = lines[0] ?? "";
  const named = lines.slice(1).find((l) => /error|cannot|not found|denied|refused|no such/i.test(l));
  const line = named ? `${first} … ${named}` : first;
  return line.length > 600 ? `${line.slice(0, 600)}…` : line;
}

/** What to change for a failure seen in every first trial; `agentDir` is where command words resolve. */
export function fixFor(error: TrialError, agent: AgentConfig, agentDir: string): string {
  const m = error.message;
  const command = agent.command ? `\`${agent.command}\`` : `the ${agent.adapter} agent`;
  if (/cannot find module|no such file|can't open file|not found|ENOENT/i.test(m)) {
    // A path the command never wrote (a program it starts) is missing where it runs, not in the repository.
    const missing = /(\/[^\s:'"`]+)['"]?: (?:\[Errno 2\] )?(?:no such file|not found)/i.exec(m)?.[1];
    const words = agent.command?.split(/\s+/) ?? [];
    if (missing && !words.some((w) => w.endsWith(missing) || missing.endsWith(w)))
      return `${command} starts ${missing}, which does not exist where the agent runs (inside the sandbox: the system folders, the program's own folder and \`agent.options.sandbox.readOnly\`): make it readable there, or name a program that does not need it (docs/isolation.md)`;
    return `a path in agent.command names nothing: relative paths resolve from the root of the trusted tree (here ${agentDir}), as a shell started there would resolve them; check ${command} there, and that the program is installed (docs/agent-protocol.md)`;
  }
  if (/\b(401|403)\b|authenticat|api[ _-]?key|unauthori[sz]ed/i.test(m))
    return "the model API refused the agent's key: set it in skillgate's environment (ANTHROPIC_API_KEY for claude-code, OPENAI_API_KEY for codex and openai; other names through `env:` in the configuration)";
  switch (error.kind) {
    case "protocol":
      return "the agent's stdout must be plain text or one JSON object as docs/agent-protocol.md and src/agents/command-reply.schema.json describe";
    case "unregistered-skill":
      return "the agent may report only skills installed for the trial (under its skills folder in the workspace, `.agents/skills/` for a command agent)";
    default:
      return `run ${command} by hand on one prompt (\`echo 'a prompt' | …\` in an empty folder) to see why; \`--verbose\` prints each trial's error`;
  }
}

export class FirstFailureWatch {
  private readonly signatures: string[] = [];
  private off = false;
  /** Why the run stopped, once it has. */
  stopped?: { reason: string; kind: TrialError["kind"] };

  constructor(private readonly fix: (error: TrialError) => string) {}

  /** One live trial's end: its error, or undefined when it succeeded. */
  observe(error: TrialError | undefined): void {
    if (this.off || this.stopped || error?.transient) return;
    if (!error || NOT_SETUP_KINDS.has(error.kind)) {
      this.off = true;
      return;
    }
    this.signatures.push(failureSignature(error));
    if (this.signatures.length < FIRST_TRIALS_WATCHED) return;
    if (this.signatures.every((s) => s === this.signatures[0])) {
      this.stopped = {
        kind: error.kind,
        reason: `the first ${FIRST_TRIALS_WATCHED} trials all failed the same way, so no further trial was started: ${error.kind}: ${headline(error.message)}\nfix: ${this.fix(error)}`,
      };
    } else this.off = true;
  }
}
