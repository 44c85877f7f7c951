import { posix } from "node:path";
import type { Skill } from "../model/index.js";

/** The name an agent knows a skill by: its frontmatter name (`plugin:`-prefixed), whatever the run calls it. */
export function agentNameOf(s: Pick<Skill, "name" | "agentName">): string {
  return s.agentName ?? s.name;
}

/** The skills one agent loads together: a plugin's, or one skills folder's (the folder holding skill folders). */
export function loadGroup(s: Pick<Skill, "namespace" | "pluginDir" | "dir">): string {
  if (s.namespace)
    return s.pluginDir === undefined ? `plugin ${s.namespace}` : `plugin ${s.namespace} in ${s.pluginDir}`;
  return s.dir === "." ? "." : posix.dirname(s.dir);
}

/** The run's name of one copy of a skill that several roots hold: `<agent name>@<folder>`, unique per run. */
export function copyName(agentName: string, dir: string): string {
  return `${agentName}@${dir}`;
}

/**
 * Names every skill for the run. Copies of one skill in roots no agent loads together (template projects each with
 * their own `.agents/skills`, per-agent folders) are each a skill of their own, `<name>@<folder>`: a PR that edits
 * only one copy changes that copy, and reports tell them apart. A name with one holder keeps its plain name. The
 * name depends on what this side holds; change detection pairs a copy with its other side by path when the set of
 * copies changed (`classifyChanges`). Records are updated in place (each is this discovery's own object); a suite,
 * which a record reused from head may share, is replaced when its skill's name changes.
 */
export function nameCopies(holders: ReadonlyMap<string, readonly Skill[]>): void {
  for (const [agentName, list] of holders)
    for (const s of list)
      if (list.length > 1) renameInPlace(s, copyName(agentName, s.dir), agentName);
      else renameInPlace(s, agentName, undefined);
}

function renameInPlace(s: Skill, name: string, agentName: string | undefined): void {
  s.name = name;
  if (agentName === undefined) delete s.agentName;
  else s.agentName = agentName;
  if (s.suite && s.suite.skill !== name) s.suite = { ...s.suite, skill: name };
}

/** A copy of `s` under another run name (its suite too, whose checks carry the skill's name). */
export function withRunName(s: Skill, like: Pick<Skill, "name" | "agentName">): Skill {
  const out: Skill = { ...s };
  renameInPlace(out, like.name, like.agentName);
  return out;
}
