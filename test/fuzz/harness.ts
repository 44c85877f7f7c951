/**
 * Drives one fuzz input through the real parser of its kind and judges the outcome: a crash is an exception
 * escaping the parser; an unlocated diagnostic lacks a file of the repository or points outside it (line ≥ 1
 * and ≤ the file's lines, column ≥ 1 and ≤ the line's length + 1); an invalid result is a transcript parse
 * whose typed record breaks its own types (non-numeric usage, non-string output…).
 * File kinds are written into a scratch repository and read by `discoverRepository` / `loadConfig`, as the
 * pipeline reads them.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseClaudeStream } from "../../src/agents/claude-code.js";
import { parseCommandOutput } from "../../src/agents/command.js";
import { assertionLookup } from "../../src/detect/assertion-types.js";
import { discoverRepository } from "../../src/detect/discover.js";
import "../../src/grade/assertions/index.js";
import * as registry from "../../src/grade/assertions/registry.js";
import { type AgentResult, type Diagnostic, formatDiagnostic, InputError } from "../../src/model/index.js";
import { loadConfig } from "../../src/settings/config.js";
import type { FuzzInput, FuzzKind } from "../support/fuzz-arbitraries.js";

export interface FuzzOutcome {
  crash?: string;
  unlocated: string[];
  invalid: string[];
  diagnostics: number;
  /** The error diagnostics, formatted (a valid input must have none). */
  errors: string[];
}

const VALID_SKILL = "---\nname: fuzz\ndescription: Splits money into cents. Use for bills.\n---\nBody\n";
const SUITE = ".agent/evals/fuzz";

/** Where each file kind lives, plus the valid files it needs beside it to be read at all. */
const LAYOUT: Record<
  Exclude<FuzzKind, "claude-stream" | "command-stdout">,
  { file: string; with: Record<string, string> }
> = {
  skill: { file: "skills/fuzz/SKILL.md", with: {} },
  case: {
    file: `${SUITE}/prompts/c.yaml`,
    with: { "skills/fuzz/SKILL.md": VALID_SKILL, [`${SUITE}/fixtures/package.json`]: "{}\n" },
  },
  assertions: {
    file: `${SUITE}/assertions/c.yaml`,
    with: { "skills/fuzz/SKILL.md": VALID_SKILL, [`${SUITE}/prompts/c.yaml`]: "id: c\nprompt: hello\n" },
  },
  meta: { file: `${SUITE}/meta.json`, with: { "skills/fuzz/SKILL.md": VALID_SKILL } },
  "trigger-eval": { file: `${SUITE}/trigger-eval.json`, with: { "skills/fuzz/SKILL.md": VALID_SKILL } },
  evals: { file: "skills/fuzz/evals/evals.json", with: { "skills/fuzz/SKILL.md": VALID_SKILL } },
  "trigger-tests": {
    file: "skills/fuzz/evals/trigger_tests.yaml",
    with: { "skills/fuzz/SKILL.md": VALID_SKILL },
  },
  config: { file: ".skillgate.yml", with: {} },
};

const lookup = assertionLookup(registry);
const decoder = new TextDecoder();

export class FuzzHarness {
  private laidOut?: FuzzKind;

  constructor(private readonly repo: string) {
    mkdirSync(repo, { recursive: true });
  }

  run(input: FuzzInput): FuzzOutcome {
    if (input.kind === "claude-stream" || input.kind === "command-stdout") return this.transcript(input);
    const layout = LAYOUT[input.kind];
    // The files beside the fuzzed one are the same for every input of a kind: laid out once per change of kind.
    if (this.laidOut !== input.kind) {
      for (const top of [".agent", "skills", ".skillgate.yml"])
        rmSync(join(this.repo, top), { recursive: true, force: true });
      for (const [p, text] of Object.entries(layout.with)) this.write(p, text);
      this.laidOut = input.kind;
    }
    this.write(layout.file, input.bytes);
    let diagnostics: Diagnostic[];
    try {
      if (input.kind === "config") {
        try {
          loadConfig(this.repo);
          diagnostics = [];
        } catch (e) {
          if (!(e instanceof InputError)) throw e;
          diagnostics = e.diagnostics;
          if (diagnostics.length === 0)
            return {
              unlocated: [`InputError without a diagnostic: ${e.message}`],
              invalid: [],
              diagnostics: 0,
              errors: [e.message],
            };
        }
      } else
        diagnostics = discoverRepository(this.repo, {
          profile: "claude-code",
          assertionTypes: lookup,
        }).diagnostics;
    } catch (e) {
      return { crash: describeError(e), unlocated: [], invalid: [], diagnostics: 0, errors: [] };
    }
    const lines = new Map<string, string[]>();
    return {
      unlocated: diagnostics.flatMap((d) => locationProblems(this.repo, d, lines)),
      invalid: [],
      diagnostics: diagnostics.length,
      errors: diagnostics.filter((d) => d.severity === "error").map(formatDiagnostic),
    };
  }

  private write(rel: string, content: string | Uint8Array): void {
    const abs = join(this.repo, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }

  private transcript(input: FuzzInput): FuzzOutcome {
    const text = decoder.decode(input.bytes);
    let result: AgentResult;
    try {
      if (input.kind === "claude-stream") result = parseClaudeStream(text).result;
      else {
        const r = parseCommandOutput(text);
        if ("protocolError" in r)
          return { unlocated: [], invalid: [], diagnostics: 1, errors: [r.protocolError] };
        result = r;
      }
    } catch (e) {
      return { crash: describeError(e), unlocated: [], invalid: [], diagnostics: 0, errors: [] };
    }
    return { unlocated: [], invalid: invalidResult(result), diagnostics: 0, errors: [] };
  }
}

/** Why `d` is not located inside a file of `repo` (empty when it is); `linesOf` caches split files. */
export function locationProblems(
  repo: string,
  d: Diagnostic,
  linesOf = new Map<string, string[]>(),
): string[] {
  const where = `${d.file}:${d.line}:${d.column} (${d.code}: ${d.message.slice(0, 120)})`;
  if (typeof d.file !== "string" || !d.file || d.file.startsWith("/") || d.file.includes("\\"))
    return [`no repository-relative file: ${where}`];
  if (!Number.isInteger(d.line) || !Number.isInteger(d.column) || d.line < 1 || d.column < 1)
    return [`line/column not ≥ 1: ${where}`];
  let isDir: boolean;
  try {
    isDir = statSync(join(repo, d.file)).isDirectory();
  } catch {
    return [`file does not exist: ${where}`];
  }
  if (isDir) return d.line === 1 && d.column === 1 ? [] : [`position in a folder: ${where}`];
  let lines = linesOf.get(d.file);
  if (!lines) {
    lines = readFileSync(join(repo, d.file), "utf8").split("\n");
    linesOf.set(d.file, lines);
  }
  if (d.line > lines.length) return [`line beyond the file's ${lines.length} lines: ${where}`];
  const len = lines[d.line - 1]!.length;
  if (d.column > len + 1) return [`column beyond the line's ${len} characters: ${where}`];
  return [];
}

/** Type violations of an AgentResult a parser returned (what TypeScript cannot check at runtime). */
export function invalidResult(r: AgentResult): string[] {
  const out: string[] = [];
  if (typeof r.output !== "string") out.push(`output is ${typeof r.output}`);
  for (const k of ["inputTokens", "outputTokens", "costUsd"] as const) {
    const v = r.usage?.[k];
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0)
      out.push(`usage.${k} is ${JSON.stringify(v) ?? typeof v}`);
  }
  if (!Array.isArray(r.skillsActivated) || r.skillsActivated.some((s) => typeof s !== "string"))
    out.push("skillsActivated is not a string array");
  if (!Array.isArray(r.toolCalls)) out.push("toolCalls is not an array");
  else
    for (const c of r.toolCalls)
      if (
        typeof c.name !== "string" ||
        !Number.isInteger(c.turn) ||
        (c.output !== undefined && typeof c.output !== "string")
      )
        out.push(`toolCall ${JSON.stringify(c).slice(0, 80)} breaks its type`);
  if (
    r.skillsRegistered !== undefined &&
    (!Array.isArray(r.skillsRegistered) || r.skillsRegistered.some((s) => typeof s !== "string"))
  )
    out.push("skillsRegistered is not a string array");
  return out;
}

function describeError(e: unknown): string {
  const err = e as Error;
  return `${err?.name ?? "Error"}: ${err?.message ?? String(e)}\n${(err?.stack ?? "").split("\n").slice(1, 6).join("\n")}`;
}
