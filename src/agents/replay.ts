/**
 * `replay` adapter: answers trials from recorded transcripts (the offline default of the demo). Recordings are
 * `*.jsonl` files in `agent.recordings` (repository-relative), one object per line:
 * `{ key, skill, caseId, mode, trial, prompt, record: AgentResult }`. A trial without a recording is an error
 * record naming it, never a pass. `writeRecordings` produces these files from a live run (`skillgate run --record`).
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import type {
  AgentAdapter,
  AgentConfig,
  AgentResult,
  Diagnostic,
  TrialMode,
  TrialRecord,
  TrialRequest,
} from "../model/index.js";
import { InputError } from "../model/index.js";
import { outputRedactor } from "../util/redact.js";
import { recordingsMissing } from "./guidance.js";
import { registerAgent } from "./registry.js";
import { errorResult } from "./result.js";

export interface Recording {
  key: string;
  skill: string;
  caseId: string;
  mode: TrialMode;
  trial: number;
  prompt: string;
  record: AgentResult;
}

const MODES: readonly string[] = ["skill", "baseline", "trigger"];

function checkRecording(o: unknown): string | undefined {
  const r = o as Record<string, unknown> | null;
  if (!r || typeof r !== "object" || Array.isArray(r)) return "a recording must be a JSON object";
  for (const f of ["key", "skill", "caseId", "prompt"])
    if (typeof r[f] !== "string") return `"${f}" must be a string`;
  if (!MODES.includes(r.mode as string)) return `"mode" must be one of ${MODES.join(", ")}`;
  if (!Number.isInteger(r.trial)) return '"trial" must be an integer';
  const rec = r.record as Record<string, unknown> | null;
  if (!rec || typeof rec !== "object") return '"record" must be an object';
  if (typeof rec.output !== "string") return '"record.output" must be a string';
  return undefined;
}

/** Reads every `*.jsonl` of a folder; bad lines are located errors (`file:line:column`). */
async function loadRecordings(dir: string, repoDir: string): Promise<Map<string, Recording>> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith(".jsonl")).sort();
  } catch {
    throw recordingsMissing(relative(repoDir, dir) || dir);
  }
  const byKey = new Map<string, Recording>();
  const diagnostics: Diagnostic[] = [];
  for (const name of names) {
    const file = join(dir, name);
    const shown = relative(repoDir, file).split("\\").join("/");
    const lines = (await readFile(file, "utf8")).split("\n");
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch (e) {
        diagnostics.push({
          file: shown,
          line: i + 1,
          column: 1,
          severity: "error",
          code: "replay/invalid-json",
          message: `not JSON: ${(e as Error).message}`,
        });
        return;
      }
      const problem = checkRecording(parsed);
      if (problem) {
        diagnostics.push({
          file: shown,
          line: i + 1,
          column: 1,
          severity: "error",
          code: "replay/invalid-recording",
          message: problem,
        });
        return;
      }
      const r = parsed as Recording;
      byKey.set(r.key, r);
    });
  }
  if (diagnostics.length) {
    const first = diagnostics[0]!;
    throw new InputError(
      `replay: ${diagnostics.length} bad recording line(s), first ${first.file}:${first.line}:${first.column}: ${first.message}`,
      diagnostics,
    );
  }
  return byKey;
}

/** Errors worth replaying are outcomes (contaminated, unregistered …); transient faults and budget stops are not. */
function worthRecording(r: TrialRecord): boolean {
  return !r.error || (!r.error.transient && r.error.kind !== "budget");
}

function fileName(skill: string): string {
  return `${skill.replace(/[^A-Za-z0-9._-]/g, "_")}.jsonl`;
}

/**
 * Writes (or merges into) `<dir>/<skill>.jsonl` one recording per trial record. Existing recordings with the same
 * key are replaced; lines are sorted by case, mode and trial so re-recording gives small diffs.
 */
export async function writeRecordings(
  dir: string,
  requests: TrialRequest[],
  records: TrialRecord[],
): Promise<void> {
  await mkdir(dir, { recursive: true });
  const bySkill = new Map<string, Recording[]>();
  requests.forEach((req, i) => {
    const rec = records[i];
    if (!rec || !worthRecording(rec)) return;
    const {
      key: _k,
      skill: _s,
      caseId: _c,
      mode: _m,
      trial: _t,
      durationMs: _d,
      cached: _x,
      attempts: _a,
      ...record
    } = rec;
    const list = bySkill.get(req.skill) ?? [];
    list.push({
      key: req.key,
      skill: req.skill,
      caseId: req.caseId,
      mode: req.mode,
      trial: req.trial,
      prompt: req.prompt,
      record,
    });
    bySkill.set(req.skill, list);
  });
  for (const [skill, fresh] of bySkill) {
    const path = join(dir, fileName(skill));
    const merged = new Map<string, Recording>();
    try {
      for (const line of (await readFile(path, "utf8")).split("\n")) {
        if (!line.trim()) continue;
        const r = JSON.parse(line) as Recording;
        merged.set(r.key, r);
      }
    } catch {
      // no previous recordings for this skill (or unreadable ones, which are replaced)
    }
    for (const r of fresh) merged.set(r.key, r);
    const sorted = [...merged.values()].sort(
      (a, b) => a.caseId.localeCompare(b.caseId) || a.mode.localeCompare(b.mode) || a.trial - b.trial,
    );
    const redactor = outputRedactor();
    await writeFile(path, `${sorted.map((r) => JSON.stringify(redactor.redactDeep(r))).join("\n")}\n`);
  }
}

function createReplayAgent(config: AgentConfig, ctx: { repoDir: string }): AgentAdapter {
  if (!config.recordings)
    throw new InputError('agent adapter "replay" needs `recordings` (a folder of *.jsonl)');
  const dir = resolve(ctx.repoDir, config.recordings);
  let loaded: Promise<Map<string, Recording>> | undefined;
  const load = () => {
    loaded ??= loadRecordings(dir, ctx.repoDir);
    return loaded;
  };
  return {
    name: "replay",
    skillsDir: ".agents/skills",
    envAllow: [],
    cacheable: false,
    needsWorkspace: false,
    async identity() {
      await load();
      return `replay:${config.recordings}`;
    },
    async run(request) {
      const found = (await load()).get(request.key);
      if (!found) {
        return errorResult(
          "protocol",
          `no recording for skill "${request.skill}" case "${request.caseId}" mode ${request.mode} trial ${request.trial} (key ${request.key}) in ${config.recordings}`,
        );
      }
      return { ...found.record, cached: true };
    },
  };
}

registerAgent("replay", createReplayAgent);
