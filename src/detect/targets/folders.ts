/**
 * Which folders each target reads skills from. A skill in a project skills folder none of the targets reads is
 * loaded by none of them: a warning at its SKILL.md (the file itself is fine, so never an error).
 */
import type { Diagnostic, Skill, Target } from "../../model/index.js";
import { FOLDER_READERS, GH_SKILL_LAYOUTS, SKILL_FOLDERS, SOURCES, TARGET_TITLES } from "./rules.js";

/** The project skills folder a skill sits in (`.claude/skills`, `.agents/skills` …), if any. */
export function skillsFolderOf(skill: Skill): (typeof SKILL_FOLDERS)[number] | undefined {
  const path = `/${skill.path}`;
  return SKILL_FOLDERS.find((f) => path.includes(`/${f.folder}/`));
}

const warning = (skill: Skill, code: string, message: string): Diagnostic => ({
  file: skill.path,
  line: 1,
  column: 1,
  severity: "warning",
  code,
  message,
});

const readersText = (targets: readonly Target[]) =>
  targets
    .map((t) => {
      const folders = SKILL_FOLDERS.filter((f) => f.readers.includes(t)).map((f) => `${f.folder}/`);
      return `${TARGET_TITLES[t]} reads ${folders.join(", ")}`;
    })
    .join("; ");

/** The folder findings of `targets`, a function of the skill (messages built once per call, not per skill). */
export function folderFindingsFor(targets: readonly Target[]): (skill: Skill) => Diagnostic[] {
  const readers = targets.filter((t) => FOLDER_READERS.includes(t));
  const told = readers.length > 0 ? readersText(readers) : "";
  return (skill) => folderFindings(skill, targets, readers, told);
}

function folderFindings(
  skill: Skill,
  targets: readonly Target[],
  readers: readonly Target[],
  told: string,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const folder = skillsFolderOf(skill);
  if (folder && readers.length > 0 && !readers.some((t) => folder.readers.includes(t)))
    out.push(
      warning(
        skill,
        "target/folder-not-read",
        `none of the targets loads skills from ${folder.folder}/ (${told}; see docs/formats.md, "Targets"): move the skill, or add the target that reads it to \`targets:\``,
      ),
    );
  if (targets.includes("gh-skill") && !GH_SKILL_LAYOUTS.some((re) => re.test(skill.path)))
    out.push(
      warning(
        skill,
        "target/gh-skill-not-found",
        `${TARGET_TITLES["gh-skill"]} does not find this skill: it publishes skills/*/SKILL.md, skills/<scope>/*/SKILL.md, */SKILL.md and plugins/<scope>/skills/*/SKILL.md (${SOURCES.ghSkillPublish})`,
      ),
    );
  return out;
}
