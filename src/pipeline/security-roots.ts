/**
 * One skill's security roots: the risky actions its trials showed, compared with the base arm
 * (src/verdict/behaviour.ts), located on what the PR added to the skill's folder.
 */
import { agentNameOf } from "../detect/copies.js";
import type { Root, Settings, Skill, TrialRecord, TrialRequest } from "../model/index.js";
import { transcriptId } from "../report/transcripts.js";
import { type AddedLine, addedLines } from "../util/added-lines.js";
import { type ObservedTrial, riskyActionRoots } from "../verdict/behaviour.js";
import type { Trees } from "../verdict/dependencies.js";

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

export function securityRoots(o: SecurityRootsInput, settings: Settings, trees: Trees | undefined): Root[] {
  const skill = o.head;
  if (!skill) return [];
  const trials = (arm: "head" | "base", ran: Ran): ObservedTrial[] =>
    ran.map(({ request, record }) => ({
      arm,
      id: transcriptId(arm, request.mode, request.caseId, request.trial),
      mode: request.mode,
      record,
    }));
  const roots = riskyActionRoots([...trials("head", o.headRecords), ...trials("base", o.baseRecords ?? [])], {
    skill: skill.name,
    agentNames: [...new Set([agentNameOf(skill), skill.name])],
    skillFile: skill.path,
    skillDir: skill.dir,
    added: addedIn(skill, o.base, trees),
    allow: settings.security.allow,
    hasBase: o.hasBase,
  });
  // With nothing at base to compare (a new skill, a sweep), the policy for such roots decides (`verdict.headOnly`).
  const headOnlyBlocks = (settings.verdict.headOnly ?? "fail") === "fail";
  return roots.map((r) => (r.status === "head-only" && !headOnlyBlocks ? { ...r, blocking: false } : r));
}
