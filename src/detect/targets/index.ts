/**
 * The rules of the base's `targets:` over the skills discovery found (docs/formats.md, "Targets"): frontmatter a
 * target refuses is an error; words a target does not list and folders no target reads are warnings. Only the
 * targets named are checked: a rule of a client the repository does not write for is never an error.
 */
import type { Diagnostic, Skill, Target } from "../../model/index.js";
import { folderFindingsFor } from "./folders.js";
import { FrontmatterLines, frontmatterFindings } from "./frontmatter.js";
import { codexListing, listingFindings } from "./listing.js";
import { openaiYamlFindings } from "./openai-yaml.js";

export { crowdedOutRoots } from "./crowding.js";
export { skillsFolderOf } from "./folders.js";
export { FrontmatterLines } from "./frontmatter.js";
export { codexCatalogue, codexFit, codexLine } from "./listing.js";

/** `repoDir`: where the skills are, for the files beside SKILL.md a target reads (Codex's `agents/openai.yaml`). */
export function targetFindings(
  skills: readonly Skill[],
  targets: readonly Target[],
  repoDir?: string,
): Diagnostic[] {
  if (targets.length === 0) return [];
  const lines = new Map<Skill, FrontmatterLines>();
  const lineOf = (s: Skill) => {
    const known = lines.get(s);
    if (known) return known;
    const made = new FrontmatterLines(s);
    lines.set(s, made);
    return made;
  };
  const out: Diagnostic[] = [];
  const folderFindings = folderFindingsFor(targets);
  for (const skill of skills)
    out.push(
      ...frontmatterFindings(skill, lineOf(skill), targets),
      ...listingFindings(skill, lineOf(skill), targets),
      ...folderFindings(skill),
    );
  if (targets.includes("codex")) {
    out.push(...codexListing(skills, lineOf));
    if (repoDir !== undefined) for (const skill of skills) out.push(...openaiYamlFindings(repoDir, skill));
  }
  return out;
}

/**
 * The profile's warnings a target's error says again at the same place (a list-valued `allowed-tools` is a
 * warning under the claude-code profile and an error when `gh-skill` is a target): the error stands alone.
 */
const SAID_AGAIN: Readonly<Record<string, readonly string[]>> = {
  "target/gh-skill-allowed-tools": ["skill/allowed-tools-list"],
  "target/gh-skill-name": ["skill/name-pattern", "skill/name-unicode", "skill/name-length"],
  "target/gh-skill-name-folder": ["skill/name-folder"],
  "target/gh-skill-missing": ["skill/frontmatter"],
  "target/upload-key": ["skill/unknown-key", "skill/claude-code-key", "skill/version-key"],
  "target/codex-length": ["skill/description-length", "skill/name-length"],
  "target/codex-missing": ["skill/frontmatter"],
  "target/codex-yaml": ["skill/frontmatter-yaml"],
  "target/gh-skill-yaml": ["skill/frontmatter-yaml"],
  "target/upload-yaml": ["skill/frontmatter-yaml"],
};

/** `diagnostics` without the warnings a target error in `findings` says again at the same line. */
export function withoutRepeats(
  diagnostics: readonly Diagnostic[],
  findings: readonly Diagnostic[],
): Diagnostic[] {
  const said = new Set<string>();
  for (const f of findings)
    if (f.severity === "error")
      for (const code of SAID_AGAIN[f.code] ?? []) said.add(`${f.file}\0${f.line}\0${code}`);
  if (said.size === 0) return [...diagnostics];
  return diagnostics.filter((d) => d.severity !== "warning" || !said.has(`${d.file}\0${d.line}\0${d.code}`));
}
