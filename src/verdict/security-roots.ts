/**
 * One skill's security roots: the risky actions its trials showed, compared with the base arm
 * (src/verdict/behaviour.ts), located on what the PR added to the skill's folder.
 */

import { join } from "node:path";
import { agentNameOf } from "../detect/copies.js";
import {
  type Root,
  type Settings,
  type Skill,
  type TrialRecord,
  type TrialRequest,
  transcriptId,
} from "../model/index.js";
import { reviewSkillFolder } from "../review/folder.js";
import type { StaticFinding } from "../review/static-review.js";
import { type AddedLine, addedLines } from "../util/added-lines.js";
import { sameCode } from "./base-reach.js";
import { allowed, type ObservedTrial, riskyActionRoots } from "./behaviour.js";
import type { Trees } from "./dependencies.js";

type Ran = { request: TrialRequest; record: TrialRecord }[];

export interface SecurityRootsInput {
  head?: Skill;
  base?: Skill;
  headRecords: Ran;
  baseRecords?: Ran;
  /** Whether the base arm ran for this skill. */
  hasBase: boolean;
}

/** The lines the PR adds to `rel` of the skill folder, or undefined when the file is the same at base. */
function addedIn(head: Skill, base: Skill | undefined, trees: Trees | undefined) {
  return (rel: string): AddedLine[] | undefined => {
    const headPath = head.dir === "." ? rel : `${head.dir}/${rel}`;
    const basePath = base ? (base.dir === "." ? rel : `${base.dir}/${rel}`) : undefined;
    if (rel === "SKILL.md" && !trees)
      return base?.raw === head.raw ? undefined : addedLines(base?.raw, head.raw);
    if (!trees) return undefined;
    if (basePath && trees.base.digest(basePath) === trees.head.digest(headPath)) return undefined;
    const after = trees.head.text(headPath);
    if (after === undefined) return undefined;
    return addedLines(basePath ? trees.base.text(basePath) : undefined, after);
  };
}

export function securityRoots(
  o: SecurityRootsInput,
  settings: Pick<Settings, "verdict" | "security">,
  trees: Trees | undefined,
  checkouts?: { head: string; base?: string },
): Root[] {
  const skill = o.head;
  if (!skill) return [];
  const roots = [
    ...behaviourRoots(o, skill, settings, trees),
    ...staticRoots(o, skill, settings, trees, checkouts),
  ];
  // With nothing at base to compare (a new skill, a sweep), the policy for such roots decides (`verdict.headOnly`).
  const headOnlyBlocks = (settings.verdict.headOnly ?? "fail") === "fail";
  return roots.map((r) => (r.status === "head-only" && !headOnlyBlocks ? { ...r, blocking: false } : r));
}

/** What the PR adds to the skill's folder, reviewed statically (a new skill: all of it). */
function staticRoots(
  o: SecurityRootsInput,
  skill: Skill,
  settings: Pick<Settings, "verdict" | "security">,
  trees: Trees | undefined,
  checkouts: { head: string; base?: string } | undefined,
): Root[] {
  if (!checkouts || o.base?.folder.contentHash === skill.folder.contentHash) return [];
  const base =
    o.base && checkouts.base
      ? { dir: join(checkouts.base, o.base.dir), files: o.base.folder.files }
      : undefined;
  const rel = (s: Skill, f: string) => (s.dir === "." ? f : `${s.dir}/${f}`);
  const findings = reviewSkillFolder(
    { dir: join(checkouts.head, skill.dir), files: skill.folder.files },
    base,
    {
      allowedHost: (h) =>
        allowed({ class: "network", target: h, detail: "", host: h, count: 1 }, settings.security.allow),
      ...(trees && o.base
        ? { same: (f: string) => trees.head.digest(rel(skill, f)) === trees.base.digest(rel(o.base!, f)) }
        : {}),
    },
  );
  return findings.map((f) => ({
    id: `static-review/${f.class}/${f.file}:${f.line}`,
    kind: "static-review" as const,
    skill: skill.name,
    status: o.base ? ("new" as const) : ("head-only" as const),
    title: `${f.blocking ? "Added to the skill" : "For review"}: ${STATIC_TITLE[f.class]}`,
    message: `${f.message}.${f.blocking ? " Only what this PR adds is reviewed; it blocks until a maintainer removes or accepts it." : ""}`,
    file: rel(skill, f.file),
    line: f.line,
    column: 1,
    cascaded: [],
    blocking: f.blocking,
    // Reported for a reviewer, never blocking: not a root this PR introduced.
    ...(f.blocking ? {} : { change: "changed" as const }),
  }));
}

const STATIC_TITLE: Record<StaticFinding["class"], string> = {
  binary: "a file that cannot be reviewed as text (compiled, executable, archive, macros)",
  "invisible-unicode": "invisible Unicode",
  "hidden-text": "text pushed out of sight by padding",
  "decode-run": "decoded text that is run",
  "download-run": "a download that is run as it arrives",
  "new-host": "hosts the skill did not name before",
};

function behaviourRoots(
  o: SecurityRootsInput,
  skill: Skill,
  settings: Pick<Settings, "verdict" | "security">,
  trees: Trees | undefined,
): Root[] {
  const trials = (arm: "head" | "base", ran: Ran): ObservedTrial[] =>
    ran.map(({ request, record }) => ({
      arm,
      id: transcriptId(arm, request.mode, request.caseId, request.trial),
      mode: request.mode,
      record,
    }));
  return riskyActionRoots([...trials("head", o.headRecords), ...trials("base", o.baseRecords ?? [])], {
    skill: skill.name,
    agentNames: [...new Set([agentNameOf(skill), skill.name])],
    skillFile: skill.path,
    skillDir: skill.dir,
    added: addedIn(skill, o.base, trees),
    allow: settings.security.allow,
    hasBase: o.hasBase,
    ...(o.hasBase ? { sameCode: sameCode(skill, o.base, trees) } : {}),
  });
}
