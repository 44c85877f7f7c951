/**
 * Content keys of trials. A trial key says *what was asked* (mode, skill content, prompt, files, trial index …);
 * the cache key adds *who answered* (adapter + model + harness version), so a model change never reuses answers.
 */
import { createHash } from "node:crypto";
import type { TrialMode } from "../model/index.js";

export interface TrialKeyInput {
  mode: TrialMode;
  /** Skill mode only: what the agent sees of the skill under test. Ignored for baseline and trigger trials. */
  skillContentHash?: string;
  /** Trigger mode only: hash of what the router sees of the catalogue (`catalogueHash`). Ignored otherwise. */
  catalogueHash?: string;
  prompt: string;
  files: { to: string; sha256: string }[];
  trial: number;
  /** Baseline constraint block. */
  constraints?: string[];
}

/** JSON with object keys sorted at every level, so equal values always serialise to equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

export function sha256Hex(text: string | Buffer): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * sha256 hex of the canonical JSON of what decides a trial's outcome. Baseline keys leave the skill content out,
 * so an unchanged case reuses its baseline across skill edits; trigger keys carry the catalogue hash instead.
 */
export function trialKey(input: TrialKeyInput): string {
  const files = [...input.files].sort((a, b) => (a.to < b.to ? -1 : a.to > b.to ? 1 : 0));
  return sha256Hex(
    canonicalJson({
      v: 1,
      mode: input.mode,
      skill: input.mode === "skill" ? (input.skillContentHash ?? null) : undefined,
      catalogue: input.mode === "trigger" ? (input.catalogueHash ?? null) : undefined,
      prompt: input.prompt,
      files: files.map((f) => [f.to, f.sha256]),
      trial: input.trial,
      constraints: input.mode === "baseline" ? (input.constraints ?? []) : undefined,
    }),
  );
}

/** The on-disk cache key: a trial key answered by one adapter identity. */
export function cacheKey(trialKey: string, identity: string): string {
  return sha256Hex(`${identity}\n${trialKey}`);
}
