import { posix } from "node:path";
import type { Diagnostic, Skill, SuiteFormat } from "../model/index.js";
import { agentNameOf } from "./copies.js";
import type { PluginRoot } from "./layout.js";
import type { SuiteReader } from "./suite-context.js";
import { localName, SEED_EVALS_DIR, seedSuiteDir } from "./touched.js";

/** A folder a skill's suite is read from, and the formats read there (all when unset). */
export interface SuiteRoot {
  dir: string;
  formats?: SuiteFormat[];
  /** skill-creator trigger sets found by their content in this folder, read whatever their name. */
  triggerFiles?: string[];
}

/** The repository-relative form of a folder path: `.` is the root. */
const joinDir = (dir: string, name: string) => (dir === "." ? name : `${dir}/${name}`);

/**
 * The suite folders a skill has by convention, whatever their files: the seed layout's `.agent/evals/<name>/`
 * (`.agent/evals/<plugin>/<name>/` for a plugin's skill) and the skill's own `evals/` (a root skill's is the
 * repository's `evals/`). Checked with the listing of `.agent/evals/` and one `stat` of `evals/`.
 */
export function conventionalSuiteRoots(reader: SuiteReader, skill: Skill): SuiteRoot[] {
  const roots: SuiteRoot[] = [];
  const seed = seedSuiteDir(skill);
  if (reader.isDir(seed)) roots.push({ dir: seed });
  const own = joinDir(skill.dir, "evals");
  if (reader.probeDir(own)) roots.push({ dir: own });
  return roots;
}

/** `skill_name` of a skill-creator `evals.json`, `skill` of a waza `eval.yaml` / `trigger_tests.yaml`. */
export function suiteFileSkillName(value: unknown): string | undefined {
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
  const v = value as { skill_name?: unknown; skill?: unknown };
  const name = typeof v.skill_name === "string" ? v.skill_name : v.skill;
  return typeof name === "string" && name.trim() !== "" ? name.trim() : undefined;
}

const FORMAT_OF: Record<string, SuiteFormat> = {
  "evals.json": "skill-creator",
  "eval.yaml": "waza",
  "eval.yml": "waza",
  "eval.vally.yaml": "waza",
  "trigger_tests.yaml": "waza",
  "trigger_tests.yml": "waza",
};

export interface SuitePlacement {
  /** Every folder the skill's suite is read from: its conventional folders, then the folders of files naming it. */
  rootsOf(skill: Skill): SuiteRoot[];
  /** Files in the skill's own suite folders that belong to another skill (they name it). */
  elsewhere(skill: Skill): ReadonlySet<string>;
  /** Problems found placing the files: a file naming no skill of the repository, or none at all. */
  diagnostics: Diagnostic[];
}

/**
 * Attaches each suite file that may live anywhere (skill-creator `evals.json`, waza `eval.yaml` and
 * `trigger_tests.yaml`) to its skill. A file naming a skill (`skill_name`, `skill`) belongs to it wherever it is;
 * a file naming none belongs to the skill whose suite folder holds it, the skill beside it (waza puts
 * `eval.yaml` next to SKILL.md), the skill of waza's project folder `evals/<name>/`, or the skill a folder is named
 * after (`tests/<plugin>/<skill>/`, dotnet/skills' layout). A file that matches no
 * skill is a warning, never silently skipped. Files are parsed once (the loaders reuse the parse); those in the
 * folders of a skill that is not `fresh` (a base record reused from head) are not read at all.
 */
export function placeSuites(
  reader: SuiteReader,
  skills: readonly Skill[],
  namedFiles: readonly string[],
  fresh: (s: Skill) => boolean,
): SuitePlacement {
  const firstDiagnostic = reader.diagnostics.length;
  const diagnostics: Diagnostic[] = [];
  if (namedFiles.length === 0)
    return {
      rootsOf: (skill) => conventionalSuiteRoots(reader, skill),
      elsewhere: () => new Set(),
      diagnostics,
    };
  // By the name the agent knows: copies of one skill (`nameCopies`) hold the same one.
  const byName = new Map<string, Skill[]>();
  const byLocal = new Map<string, Skill[]>();
  for (const s of skills) {
    byName.set(agentNameOf(s), [...(byName.get(agentNameOf(s)) ?? []), s]);
    byLocal.set(localName(s), [...(byLocal.get(localName(s)) ?? []), s]);
  }
  const bySuiteDir = new Map<string, Skill>();
  const byDir = new Map<string, Skill>();
  for (const s of skills) {
    bySuiteDir.set(seedSuiteDir(s), s);
    bySuiteDir.set(joinDir(s.dir, "evals"), s);
    byDir.set(s.dir, s);
  }
  const extra = new Map<Skill, Map<string, Set<SuiteFormat>>>();
  const hidden = new Map<Skill, Set<string>>();
  /** The skill `name` names; of several copies, the one the file sits with (`near`), else none. */
  const resolve = (name: string, near?: Skill): Skill | undefined => {
    const pick = (list: Skill[] | undefined) =>
      list?.length === 1 ? list[0] : near && list?.includes(near) ? near : undefined;
    const exact = byName.get(name);
    return exact ? pick(exact) : pick(byLocal.get(name));
  };
  for (const file of namedFiles) {
    const dir = posix.dirname(file);
    const format = FORMAT_OF[posix.basename(file)]!;
    const inSuiteOf = bySuiteDir.get(dir);
    if (inSuiteOf && !fresh(inSuiteOf)) continue; // a reused record keeps its suite as it was read
    const project = /^evals\/([^/]+)$/.exec(dir);
    const beside = byDir.get(dir) ?? (project ? resolve(project[1]!) : undefined);
    const src = reader.read(file);
    // skill-creator reads `evals.json` only in a skill's `evals/` folder: one found by its name elsewhere that does
    // not parse (a symbolic link checked out as its target's path, a fragment) names no skill and blocks nothing.
    if (!src && !inSuiteOf && format === "skill-creator") {
      reader.demoteParseErrors(
        file,
        "not read: found by its name outside a skill's evals/ folder, where skill-creator does not read it",
      );
      continue;
    }
    const named = suiteFileSkillName(src?.value);
    const namedSkill = named !== undefined ? resolve(named, inSuiteOf ?? beside) : undefined;
    const key =
      (src?.value as Record<string, unknown> | undefined)?.skill_name !== undefined ? "skill_name" : "skill";
    const at = named !== undefined && src ? src.locateKey([key]) : { file, line: 1, column: 1 };
    if (named !== undefined && !namedSkill) {
      const copies = (byName.get(named)?.length ?? 0) > 1;
      const ambiguous = copies || (byLocal.get(named)?.length ?? 0) > 1;
      diagnostics.push({
        ...at,
        severity: "warning",
        code: "suite/orphan",
        message: copies
          ? `suite file names skill \`${named}\`, which several folders hold copies of (${byName
              .get(named)!
              .map((s) => s.dir)
              .join(", ")}): put it in the suite folder of the copy it is for`
          : ambiguous
            ? `suite file names skill \`${named}\`, which several plugins have: name it \`<plugin>:${named}\``
            : `suite file names skill \`${named}\`, which this repository does not have${(inSuiteOf ?? beside) ? `; read as ${(inSuiteOf ?? beside)!.name}'s` : ""}`,
      });
    } else if (namedSkill && (inSuiteOf ?? beside) && namedSkill !== (inSuiteOf ?? beside))
      diagnostics.push({
        ...at,
        severity: "warning",
        code: "suite/names-other-skill",
        message: `suite file names skill \`${named}\` but sits with ${(inSuiteOf ?? beside)!.name}: read as ${namedSkill.name}'s`,
      });
    // A file naming no skill, away from every skill, in a folder named after one (dotnet/skills keeps
    // `tests/<plugin>/<skill>/eval.yaml`): that skill's, when the name is unambiguous.
    const byFolder =
      named === undefined && !inSuiteOf && !beside
        ? (resolve(`${posix.basename(posix.dirname(dir))}:${posix.basename(dir)}`) ??
          resolve(posix.basename(dir)))
        : undefined;
    // Else the skill whose folder holds it (`<skill>/tests/eval.yaml`, `<skill>/tests/evals.json`): a file inside
    // a skill's folder naming none is that skill's.
    const enclosing =
      named === undefined && !inSuiteOf && !beside && !byFolder ? enclosingSkill(dir, byDir) : undefined;
    const owner = namedSkill ?? inSuiteOf ?? beside ?? byFolder ?? enclosing;
    if (!owner) {
      if (named === undefined)
        diagnostics.push({
          ...at,
          severity: "warning",
          code: "suite/orphan",
          message: `suite file matches no skill: it names none (\`${format === "skill-creator" ? "skill_name" : "skill"}\`) and sits in no skill's suite folder`,
        });
      continue;
    }
    if (inSuiteOf && owner !== inSuiteOf) {
      const h = hidden.get(inSuiteOf) ?? new Set<string>();
      h.add(file);
      hidden.set(inSuiteOf, h);
    }
    if (owner === inSuiteOf) continue; // read with its conventional folder
    const roots = extra.get(owner) ?? new Map<string, Set<SuiteFormat>>();
    roots.set(dir, (roots.get(dir) ?? new Set()).add(format));
    extra.set(owner, roots);
  }
  diagnostics.push(...reader.diagnostics.slice(firstDiagnostic));
  return {
    rootsOf(skill) {
      const roots = conventionalSuiteRoots(reader, skill);
      for (const [dir, formats] of extra.get(skill) ?? [])
        if (!roots.some((r) => r.dir === dir)) roots.push({ dir, formats: [...formats] });
      return roots;
    },
    elsewhere: (skill) => hidden.get(skill) ?? new Set(),
    diagnostics,
  };
}

/** The skill whose folder holds `dir` (the nearest one up), if any. */
function enclosingSkill(dir: string, byDir: ReadonlyMap<string, Skill>): Skill | undefined {
  for (let d = posix.dirname(dir); d !== "." && d !== "/"; d = posix.dirname(d)) {
    const s = byDir.get(d);
    if (s) return s;
  }
  return undefined;
}

/**
 * Seed-layout suite folders with no skill of that name (renamed or deleted skill, or a misspelt folder); a
 * plugin's folder under `.agent/evals/` holds its skills' suites.
 */
export function orphanSeedSuites(
  reader: SuiteReader,
  skills: readonly Skill[],
  plugins: readonly PluginRoot[],
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const entriesOf = (rel: string) =>
    [...(reader.dirs.list(rel) ?? [])]
      .filter(([, e]) => e.kind === "dir")
      .map(([n]) => n)
      .sort();
  if (!reader.dirs.isDir(SEED_EVALS_DIR)) return out;
  // Names, not paths: 10,000 path joins for 1,000 folders is most of this pass.
  const names = new Set(skills.map(agentNameOf));
  const namespaces = new Set(plugins.map((p) => p.name));
  const warn = (dir: string, what: string) =>
    out.push({
      file: dir,
      line: 1,
      column: 1,
      severity: "warning",
      code: "suite/orphan",
      message: `eval suite \`${what}\` has no skill of that name`,
    });
  for (const name of entriesOf(SEED_EVALS_DIR)) {
    const dir = posix.join(SEED_EVALS_DIR, name);
    if (names.has(name)) continue;
    if (namespaces.has(name)) {
      for (const inner of entriesOf(dir))
        if (!names.has(`${name}:${inner}`)) warn(posix.join(dir, inner), `${name}:${inner}`);
    } else warn(dir, name);
  }
  return out;
}
