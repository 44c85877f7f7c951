/**
 * Lockstep: the skill's `metadata.version` against the suite's `meta.json` (`skillVersion`, else `suiteVersion`).
 * An eval written for version 1 says little about version 3: a lag of more than one revision is reported at the
 * skill's version line.
 */
import type { SourceLocation } from "../model/diagnostics.js";
import type { Skill } from "../model/skill.js";
import type { Suite } from "../model/suite.js";

/** How many revisions the suite may trail the skill. */
export const MAX_VERSION_LAG = 1;

export interface LockstepResult {
  status: "ok" | "lagging" | "unknown";
  skillVersion?: string;
  /** The version the suite says it tracks, and which key it came from. */
  suiteTracks?: string;
  suiteKey?: "skillVersion" | "suiteVersion";
  /** Revisions between them (skill minus suite) in the first component that differs; undefined when not comparable. */
  lag?: number;
  message: string;
  loc: SourceLocation;
}

/** Numeric components of a version: "1.2.0" → [1, 2, 0], "v3" → [3]; undefined when not numeric. */
function versionParts(v: string): number[] | undefined {
  const m = /^v?(\d+(?:\.\d+)*)(?:[-+].*)?$/.exec(v.trim());
  return m ? m[1]!.split(".").map(Number) : undefined;
}

/** Revisions from `b` to `a`: the difference of the first component that differs (missing components count 0). */
export function revisionLag(a: string, b: string): number | undefined {
  const pa = versionParts(a);
  const pb = versionParts(b);
  if (!pa || !pb) return undefined;
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export function checkLockstep(skill: Skill, suite: Suite): LockstepResult {
  const loc = skill.loc.version ?? skill.loc.frontmatter;
  const meta = suite.meta;
  const suiteKey: LockstepResult["suiteKey"] =
    meta.skillVersion !== undefined
      ? "skillVersion"
      : meta.suiteVersion !== undefined
        ? "suiteVersion"
        : undefined;
  const suiteTracks = suiteKey ? meta[suiteKey] : undefined;
  const base = {
    ...(skill.version !== undefined ? { skillVersion: skill.version } : {}),
    ...(suiteTracks !== undefined ? { suiteTracks, suiteKey } : {}),
    loc,
  };
  if (skill.version === undefined || suiteTracks === undefined) {
    return {
      ...base,
      status: "unknown",
      message:
        skill.version === undefined
          ? `${skill.name} has no metadata.version: lockstep with its eval suite cannot be checked`
          : `${meta.loc.file} names no skillVersion or suiteVersion: lockstep with ${skill.name} ${skill.version} cannot be checked`,
    };
  }
  const lag = revisionLag(skill.version, suiteTracks);
  if (lag === undefined) {
    return {
      ...base,
      status: skill.version === suiteTracks ? "ok" : "unknown",
      message:
        skill.version === suiteTracks
          ? `suite tracks ${skill.name} ${skill.version}`
          : `versions ${JSON.stringify(skill.version)} and ${JSON.stringify(suiteTracks)} are not numeric: lag unknown`,
    };
  }
  if (Math.abs(lag) > MAX_VERSION_LAG) {
    const direction = lag > 0 ? "trails the skill" : "is ahead of the skill";
    return {
      ...base,
      lag,
      status: "lagging",
      message: `${skill.name} is at version ${skill.version} but its eval suite (${meta.loc.file} ${suiteKey} ${suiteTracks}) ${direction} by ${Math.abs(lag)} revisions (more than ${MAX_VERSION_LAG}): update the suite for this version`,
    };
  }
  return {
    ...base,
    lag,
    status: "ok",
    message: `suite tracks ${skill.name} ${suiteTracks} (skill ${skill.version}, lag ${lag})`,
  };
}
