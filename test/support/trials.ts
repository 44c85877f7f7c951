import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
/** Builders for trial requests and a recording logger, shared by runner/adapter tests. */
import type { InstalledSkill, Logger, TrialMode, TrialRequest } from "../../src/model/index.js";
import { sha256Hex, trialKey } from "../../src/plan/keys.js";

export function makeRequest(p: Partial<TrialRequest> & { prompt: string }): TrialRequest {
  const mode: TrialMode = p.mode ?? "skill";
  // The skill under test is installed for skill and trigger trials, as the planner does.
  const install = p.install ?? (mode === "baseline" ? [] : [defaultSkill()]);
  return {
    skill: "split-cents",
    caseId: "case-1",
    mode,
    trial: 0,
    files: [],
    install,
    seed: 7,
    ...p,
    key:
      p.key ??
      trialKey({
        mode,
        skillContentHash: install[0]?.contentHash,
        catalogueHash: sha256Hex(install.map((s) => s.contentHash).join(",")),
        prompt: p.prompt,
        files: (p.files ?? []).map((f) => ({ to: f.to, sha256: sha256Hex(f.from) })),
        trial: p.trial ?? 0,
        constraints: p.constraints,
      }),
  };
}

let defaultSkillDir: string | undefined;

/** A real `split-cents` skill folder (created once per test process). */
export function defaultSkill(): InstalledSkill {
  if (!defaultSkillDir) {
    defaultSkillDir = mkdtempSync(join(tmpdir(), "skill-split-cents-"));
    writeFileSync(
      join(defaultSkillDir, "SKILL.md"),
      "---\nname: split-cents\ndescription: Split money in cents without losing any.\n---\nUse largest remainder.\n",
    );
  }
  return skill("split-cents", defaultSkillDir, ["SKILL.md"]);
}

export function skill(
  name: string,
  sourceDir: string,
  files: string[],
  description = `The ${name} skill.`,
): InstalledSkill {
  return { name, description, sourceDir, files, contentHash: sha256Hex(`${name}:${files.join(",")}`) };
}

export interface RecordingLogger extends Logger {
  lines: string[];
  progressCalls: Parameters<Logger["progress"]>[0][];
}

export function recordingLogger(): RecordingLogger {
  const lines: string[] = [];
  const progressCalls: RecordingLogger["progressCalls"] = [];
  return {
    lines,
    progressCalls,
    info: (m) => lines.push(`info: ${m}`),
    warn: (m) => lines.push(`warn: ${m}`),
    error: (m) => lines.push(`error: ${m}`),
    debug: (m) => lines.push(`debug: ${m}`),
    group: async (_name, fn) => fn(),
    progress: (p) => progressCalls.push({ ...p }),
  };
}
