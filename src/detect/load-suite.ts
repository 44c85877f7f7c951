import type { Diagnostic, Skill, Suite } from "../model/index.js";
import { foreignChecks } from "./foreign-vars.js";
import { SUITE_FORMATS, type SuiteDraft } from "./formats/index.js";
import { loadTriggerFile } from "./formats/skill-creator.js";
import type { SuiteReader } from "./suite-context.js";
import { conventionalSuiteRoots, type SuiteRoot } from "./suite-roots.js";

/**
 * Loads the suite of a skill from its suite folders (`suiteRoots`), every format each folder may hold; `hidden`
 * files (suite files that name another skill) are left to that skill.
 */
export function loadSuite(
  reader: SuiteReader,
  skill: Skill,
  diagnostics: Diagnostic[],
  roots: readonly SuiteRoot[] = conventionalSuiteRoots(reader, skill),
  hidden: ReadonlySet<string> = new Set(),
): Suite | undefined {
  if (roots.length === 0) return undefined;
  const start = reader.sourceFiles.length;
  const firstDiagnostic = reader.diagnostics.length;
  const firstPartProblem = reader.partProblems.length;
  const draft: SuiteDraft = { skillDir: skill.dir, cases: [], formats: [] };
  reader.hide(hidden);
  try {
    for (const root of roots)
      for (const format of SUITE_FORMATS)
        if (
          (root.formats ? root.formats.includes(format.format) : !format.onlyWhereNamed) &&
          format.detect(reader, root.dir)
        ) {
          format.load(reader, root.dir, draft);
          if (!draft.formats.includes(format.format)) draft.formats.push(format.format);
        }
    for (const file of roots.flatMap((r) => r.triggerFiles ?? [])) {
      loadTriggerFile(reader, file, draft);
      if (!draft.formats.includes("skill-creator")) draft.formats.push("skill-creator");
    }
  } finally {
    reader.hide(new Set());
  }
  // Placeholders once every format has loaded: meta.json's vars and oracle are known then.
  foreignChecks(draft.cases, draft.meta);
  for (const c of draft.cases) reader.checkTemplates(c, draft.meta);
  const ids = new Map<string, string>();
  for (const c of draft.cases) {
    const prev = ids.get(c.id);
    if (prev)
      reader.error(c.loc, "suite/duplicate-case", `case id \`${c.id}\` is already defined in ${prev}`);
    else ids.set(c.id, c.loc.file);
  }
  diagnostics.push(...reader.diagnostics.slice(firstDiagnostic));
  const root = roots[0]!.dir;
  const partProblems = reader.partProblems.slice(firstPartProblem);
  if (draft.formats.length === 0) {
    diagnostics.push({
      file: root,
      line: 1,
      column: 1,
      severity: "warning",
      code: "suite/empty",
      message:
        "eval folder holds no suite file (meta.json, prompts/, trigger-eval.json, evals.json, eval.yaml or trigger_tests.yaml)",
    });
    return undefined;
  }
  const sourceFiles = [...new Set(reader.sourceFiles.slice(start))];
  const queries = (draft.trigger?.shouldFire.length ?? 0) + (draft.trigger?.shouldNotFire.length ?? 0);
  const said = reader.diagnostics.slice(firstDiagnostic).some((d) => d.code === "suite/not-read");
  if (draft.cases.length === 0 && queries === 0 && partProblems.length === 0 && !said)
    // Attached, yet nothing in it runs (`evals: []`, every task disabled …): said once, never silence.
    diagnostics.push({
      file: sourceFiles[0] ?? root,
      line: 1,
      column: 1,
      severity: "notice",
      code: "suite/no-cases",
      message: `${skill.name}'s suite files hold no case and no trigger query that skillgate reads: nothing of this skill is gated by them`,
    });
  return {
    skill: skill.name,
    root,
    formats: draft.formats,
    meta: draft.meta ?? {
      thresholds: {},
      vars: {},
      loc: { file: root, line: 1, column: 1 },
      keyLoc: {},
    },
    cases: draft.cases,
    trigger: draft.trigger,
    sourceFiles,
    ...(partProblems.length > 0 ? { partProblems } : {}),
  };
}
