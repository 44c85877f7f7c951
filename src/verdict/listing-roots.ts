/**
 * A listing root (an edited description that pushes a sibling out of a target's capped list, `crowdedOutRoots`)
 * is the edited skill's: it joins that skill's verdict, which then fails, so the skill's own line never reads PASS
 * above it. A root no evaluated skill owns stays the repository's.
 */
import type { Root } from "../model/index.js";
import { isNewRoot, type SkillVerdict } from "./decide.js";

/** `verdict` with the listing roots its skill owns: appended to its roots, blocking ones fail it, reason first. */
export function withListingRoots(verdict: SkillVerdict, owned: readonly Root[]): SkillVerdict {
  if (owned.length === 0) return verdict;
  const out: SkillVerdict = {
    ...verdict,
    roots: [...verdict.roots],
    blockingRoots: [...verdict.blockingRoots],
    newRoots: [...verdict.newRoots],
    reasons: [...verdict.reasons],
  };
  for (const root of owned) {
    out.roots.push(root);
    if (isNewRoot(root)) out.newRoots.push(root);
    if (!root.blocking) continue;
    out.blockingRoots.push(root);
    out.verdict = "fail";
    out.reasons.unshift(`a target's capped skill list changed (blocking): ${root.title}`);
  }
  return out;
}

/**
 * The listing roots by owner: the index of the first skill (of `skillFiles`, each skill's SKILL.md path) whose
 * file the root points at, and the roots no skill owns.
 */
export function listingRootOwners(
  skillFiles: readonly string[],
  roots: readonly Root[],
): { owned: Map<number, Root[]>; unowned: Root[] } {
  const owned = new Map<number, Root[]>();
  const unowned: Root[] = [];
  for (const root of roots) {
    const i = skillFiles.indexOf(root.file);
    if (i < 0) unowned.push(root);
    else owned.set(i, [...(owned.get(i) ?? []), root]);
  }
  return { owned, unowned };
}
