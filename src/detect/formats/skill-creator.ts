import { posix } from "node:path";
import type { Assertion, TriggerQuery } from "../../model/index.js";
import { skillCreatorEvalsSchema, skillCreatorTriggerSchema } from "../schemas.js";
import type { SuiteDraft, SuiteFormatLoader } from "./types.js";

/** skill-creator's trigger sets have no fixed file name; these are the names we look at. */
const TRIGGER_FILE = /^(trigger[-_]?evals?|triggers?|trigger[-_]?queries|eval[-_]?set)\.json$/i;

/** Anthropic skill-creator: `evals.json` (natural-language expectations) and `[{query, should_trigger}]`. */
export const skillCreatorFormat: SuiteFormatLoader = {
  format: "skill-creator",
  detect(reader, root) {
    // A trigger file in the object form (`trigger-eval.json` of the seed layout) is the seed loader's.
    return (
      reader.exists(posix.join(root, "evals.json")) ||
      reader.list(root, TRIGGER_FILE).some((f) => Array.isArray(reader.read(f)?.value))
    );
  },
  load(reader, root, draft) {
    const evalsFile = posix.join(root, "evals.json");
    if (reader.exists(evalsFile)) {
      const src = reader.read(evalsFile);
      if (src && reader.validate(skillCreatorEvalsSchema, src.value, src, [], "suite/skill-creator-evals")) {
        const evals = (src.value as { evals: Record<string, unknown>[] }).evals;
        evals.forEach((e, i) => {
          const id =
            e.id === undefined ? `eval-${i + 1}` : /^\d+$/.test(String(e.id)) ? `eval-${e.id}` : String(e.id);
          const assertions: Assertion[] = [];
          const key = Array.isArray(e.expectations) ? "expectations" : "assertions";
          const list = (e[key] as unknown[] | undefined) ?? [];
          list.forEach((x, j) => {
            const path = ["evals", i, key, j];
            if (typeof x === "string" || (x && typeof x === "object" && !("type" in x) && "text" in x)) {
              // A natural-language check: graded by the configured judge, never implied.
              const text = typeof x === "string" ? x : String((x as { text: unknown }).text);
              const a = reader.assertion(
                { id: `expectation-${j + 1}`, type: "judge", value: text },
                src,
                path,
              );
              if (a) assertions.push({ ...a, loc: src.locate(path) });
            } else {
              const a = reader.assertion(x, src, path);
              if (a) assertions.push(a);
            }
          });
          const c = {
            id,
            prompt: String(e.prompt),
            // skill-creator's paths are relative to the skill folder (`evals/files/x.pdf`); a suite kept
            // elsewhere (`evals/evals.json` at the repository root) resolves them from the folder above it.
            files: reader.caseFiles(e.files, filesBase(root, draft.skillDir), src, ["evals", i, "files"]),
            assertions,
            vars: {},
            loc: src.locate(["evals", i]),
          };
          reader.checkCase(c);
          draft.cases.push(c);
        });
      }
    }
    for (const file of reader.list(root, TRIGGER_FILE)) {
      const src = reader.read(file);
      if (!src || !Array.isArray(src.value)) continue; // the seed loader reads the object form
      if (!reader.validate(skillCreatorTriggerSchema, src.value, src, [], "suite/skill-creator-trigger"))
        continue;
      const fire: TriggerQuery[] = [];
      const noFire: TriggerQuery[] = [];
      (src.value as { query: string; should_trigger: boolean }[]).forEach((q, i) => {
        (q.should_trigger ? fire : noFire).push({ prompt: q.query, weight: 1, loc: src.locate([i]) });
      });
      addTriggers(draft, fire, noFire, src.locate([]));
    }
  },
};

function filesBase(root: string, skillDir: string): string {
  if (skillDir === "." || root === skillDir || root.startsWith(`${skillDir}/`)) return skillDir;
  return posix.dirname(root);
}

export function addTriggers(
  draft: SuiteDraft,
  fire: TriggerQuery[],
  noFire: TriggerQuery[],
  loc: TriggerQuery["loc"],
): void {
  if (!draft.trigger) draft.trigger = { shouldFire: [], shouldNotFire: [], loc };
  draft.trigger.shouldFire.push(...fire);
  draft.trigger.shouldNotFire.push(...noFire);
}
