/**
 * A description edit that pushes a sibling skill out of Codex's capped skill list: the sibling's line fitted the
 * list at base and does not at head, while the edited skill's line grew (or the skill is new). The router can no
 * longer see the sibling, whatever the sibling's own file says: a routing root at the edited description's line.
 */
import type { Root, Skill } from "../../model/index.js";
import { FrontmatterLines } from "./frontmatter.js";
import { codexCatalogue, codexFit } from "./listing.js";
import { CODEX_CATALOGUE_CHARS, SOURCES } from "./rules.js";

export function crowdedOutRoots(head: readonly Skill[], base: readonly Skill[]): Root[] {
  const before = codexFit(codexCatalogue(base));
  const after = codexFit(codexCatalogue(head));
  const fittedBefore = new Set([...before].filter(([, f]) => f.fit).map(([s]) => s.path));
  const lost = [...after].filter(([s, f]) => fittedBefore.has(s.path) && !f.fit).map(([s]) => s);
  if (lost.length === 0) return [];
  const baseCost = new Map([...before].map(([s, f]) => [s.path, f.cost]));
  const names = lost.map((s) => s.name).join(", ");
  const roots: Root[] = [];
  for (const [s, { cost }] of after) {
    const was = baseCost.get(s.path);
    if (was !== undefined && cost <= was) continue;
    const at = new FrontmatterLines(s).value("description");
    const grew = was === undefined ? "adds a line" : `grows its line by ${cost - was} characters`;
    roots.push({
      id: `trigger/codex-catalogue/${s.path}`,
      kind: "trigger",
      skill: s.name,
      status: "new",
      title: `Codex's skill list no longer holds ${names}`,
      message: `This change ${grew} in Codex's skill list (one line per skill, ${CODEX_CATALOGUE_CHARS.toLocaleString("en-US")} characters when Codex does not know the model's context window): ${names} fitted at base and no longer ${lost.length === 1 ? "does" : "do"}, so Codex shortens or leaves out what its router reads of ${lost.length === 1 ? "it" : "them"} (${SOURCES.codexSkills}). Shorten this description, or the list.`,
      file: at.file,
      line: at.line,
      column: at.column,
      cascaded: lost.map((l) => l.path),
      blocking: true,
    });
  }
  return roots;
}
