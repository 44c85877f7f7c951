import { realpathSync } from "node:fs";
import { isAbsolute, join, posix, relative, sep } from "node:path";
import type { Diagnostic, Skill } from "../model/index.js";

/**
 * The symbolic links inside each fresh skill's folder: where each leads, kept as the skill's
 * `linkTargets` (its files are installed and hashed with the skill, so an edit of the target is an edit of the
 * skill); a link out of the repository or into a loop is a located error, one to nothing a warning; neither is
 * followed.
 */
export function followLinks(
  repoDir: string,
  skills: readonly Skill[],
  links: readonly string[] | undefined,
  fresh: ReadonlySet<Skill>,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!links?.length) return out;
  const byDir = new Map(skills.filter((s) => fresh.has(s)).map((s) => [s.dir, s]));
  let realRepo: string | undefined;
  for (const link of links) {
    let owner: Skill | undefined;
    for (let d = posix.dirname(link); ; d = posix.dirname(d)) {
      owner = byDir.get(d);
      if (owner || d === ".") break;
    }
    if (!owner) continue;
    if (link === owner.path) continue; // SKILL.md: loadSkill
    const problem = (code: string, message: string, severity: Diagnostic["severity"] = "error") =>
      out.push({ file: link, line: 1, column: 1, severity, code, message });
    let real: string;
    try {
      realRepo ??= realpathSync(repoDir);
      real = realpathSync(join(repoDir, link));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ELOOP")
        problem("skill/link-loop", "a loop of symbolic links in the skill folder: not installed");
      // Nothing there for any agent either (often a generated or ignored file): said, not blocking.
      else
        problem(
          "skill/link-dangling",
          "a symbolic link to nothing in the skill folder: not installed",
          "warning",
        );
      continue;
    }
    const rel = relative(realRepo, real).split(sep).join("/");
    if (rel === "" || rel.startsWith("../") || isAbsolute(rel)) {
      problem(
        "skill/link-outside",
        "a symbolic link out of the repository in the skill folder: never followed, hashed or installed",
      );
      continue;
    }
    owner.linkTargets = [...(owner.linkTargets ?? []), rel];
  }
  return out;
}
