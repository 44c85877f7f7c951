/** Which skill holds each agent name: a clash in one load group is an error, or (Claude Code) the folder's name. */
import { posix } from "node:path";
import type { Diagnostic, Skill, ValidationProfile } from "../model/index.js";
import { agentNameOf, copyName, loadGroup } from "./copies.js";
import { qualifiedName } from "./layout.js";

export const byCodepoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The loaded skills that keep a name, in path order, and the skills holding each agent name (discovery order).
 * One agent loads one plugin, or one skills folder (`.claude/skills`, `.agents/skills` …), at a time: two skills of
 * one name there are a conflict; copies in folders no agent loads together (per-agent folders, template projects,
 * translations) are not: each is gated as a skill of its own (`nameCopies`).
 */
export function claimNames(
  loaded: Skill[],
  profile: ValidationProfile,
  diagnostics: Diagnostic[],
): { skills: Skill[]; holders: Map<string, Skill[]> } {
  const skills: Skill[] = [];
  const holders = new Map<string, Skill[]>();
  // A skill in a folder of its own name holds that name first, as Claude Code calls it by that folder: the other of
  // two skills sharing a name is the one renamed or in error, whatever order the folders are listed in.
  loaded.sort((x, y) => Number(!inOwnFolder(x)) - Number(!inOwnFolder(y)) || byCodepoint(x.path, y.path));
  for (const skill of loaded) {
    let agentName = agentNameOf(skill);
    let others = holders.get(agentName) ?? [];
    // Folders of skill folders that no agent reads (test data, examples) hold copies, never a conflict.
    const clash =
      skill.layout !== "grouped" ? others.find((o) => loadGroup(o) === loadGroup(skill)) : undefined;
    if (clash) {
      const byFolder = profile === "claude-code" ? folderNameIfFree(skill, agentName, holders) : undefined;
      const where = skill.namespace
        ? `in plugin ${skill.namespace}`
        : `in one skills folder (${loadGroup(skill)}/)`;
      if (byFolder === undefined) {
        diagnostics.push({
          ...(skill.loc.name ?? skill.loc.frontmatter),
          severity: "error",
          code: "skill/duplicate-name",
          message: `skill name \`${agentName}\` is also used by ${clash.path}; names must be unique ${where}`,
        });
        continue;
      }
      // Claude Code lists skills by folder: it loads both, and the shared name calls the first. So does skillgate.
      diagnostics.push({
        ...(skill.loc.name ?? skill.loc.frontmatter),
        severity: "warning",
        code: "skill/duplicate-name",
        message: `skill name \`${agentName}\` is also used by ${clash.path}: Claude Code loads both, this one as \`${byFolder}\` (its folder's name), and \`${agentName}\` calls the other; names must be unique ${where} (strict profile: error)`,
      });
      skill.name = byFolder;
      agentName = byFolder;
      // Copies of that name in folders loaded apart from this one: each is then gated under `<name>@<folder>`.
      others = holders.get(byFolder) ?? [];
    }
    if (others.length > 0)
      diagnostics.push({
        ...(skill.loc.name ?? skill.loc.frontmatter),
        severity: "notice",
        code: "skill/duplicate-copy",
        message: `a copy of skill \`${agentName}\` (also at ${others.map((o) => o.path).join(", ")}) in a folder no agent loads together with it: gated as a skill of its own, \`${copyName(agentName, skill.dir)}\``,
      });
    holders.set(agentName, [...others, skill]);
    skills.push(skill);
  }
  skills.sort((x, y) => byCodepoint(x.path, y.path));
  return { skills, holders };
}

/** Whether the skill's folder bears the name it is called by. */
function inOwnFolder(skill: Skill): boolean {
  return qualifiedName(posix.basename(skill.dir), skill.namespace) === agentNameOf(skill);
}

/** The skill's folder name as its name, when no skill it is loaded with holds that name already. */
function folderNameIfFree(
  skill: Skill,
  taken: string,
  holders: ReadonlyMap<string, readonly Skill[]>,
): string | undefined {
  const byFolder = qualifiedName(posix.basename(skill.dir), skill.namespace);
  if (byFolder === taken) return undefined;
  const clash = (holders.get(byFolder) ?? []).some((o) => loadGroup(o) === loadGroup(skill));
  return clash ? undefined : byFolder;
}
