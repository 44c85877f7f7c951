import { posix } from "node:path";
import type { Case, SourceLocation, SuiteMeta, TriggerQuery } from "../../model/index.js";
import { assertionFileSchema, caseSchema, metaSchema, triggerEvalSchema } from "../schemas.js";
import type { SourceFile } from "../source-file.js";
import type { SuiteReader } from "../suite-context.js";
import { addTriggers } from "./skill-creator.js";
import type { SuiteFormatLoader } from "./types.js";

const DATA_FILE = /\.(json|ya?ml)$/i;

/** The seed layout: meta.json, prompts/*, assertions/<case-id>.*, trigger-eval.json. */
export const seedFormat: SuiteFormatLoader = {
  format: "seed",
  detect(reader, root) {
    const trigger = posix.join(root, "trigger-eval.json");
    return (
      reader.exists(posix.join(root, "meta.json")) ||
      reader.isDir(posix.join(root, "prompts")) ||
      // An array there is skill-creator's trigger set; one that does not parse is ours to report.
      (reader.exists(trigger) && !Array.isArray(reader.read(trigger)?.value))
    );
  },
  load(reader, root, draft) {
    const metaFile = posix.join(root, "meta.json");
    if (reader.exists(metaFile)) draft.meta = loadMeta(reader, metaFile);
    const assertionFiles = new Map<string, string>();
    for (const f of reader.list(posix.join(root, "assertions"), DATA_FILE))
      assertionFiles.set(posix.basename(f).replace(DATA_FILE, ""), f);
    const seenAssertionFiles = new Set<string>();
    for (const file of reader.list(posix.join(root, "prompts"), DATA_FILE)) {
      // One case per file: a file that does not load is an error of that case alone.
      const part = { part: "case" as const, caseId: posix.basename(file).replace(DATA_FILE, "") };
      const { value: c, ok } = reader.withinPart(part, () => {
        const c = loadCase(reader, root, file);
        if (!c) return undefined;
        part.caseId = c.id;
        const af = assertionFiles.get(c.id);
        if (af) {
          seenAssertionFiles.add(af);
          const src = reader.read(af);
          if (src && reader.validate(assertionFileSchema, src.value, src, [], "suite/assertion-file")) {
            const list = Array.isArray(src.value)
              ? src.value
              : (src.value as { assertions: unknown[] }).assertions;
            const base = Array.isArray(src.value) ? [] : ["assertions"];
            list.forEach((raw, i) => {
              const a = reader.assertion(raw, src, [...base, i]);
              if (a) c.assertions.push(a);
            });
          }
        }
        return reader.checkCase(c) ? c : undefined;
      });
      if (c && ok) draft.cases.push(c);
    }
    for (const [id, f] of assertionFiles)
      if (!seenAssertionFiles.has(f))
        reader.error(
          { file: f, line: 1, column: 1 },
          "suite/orphan-assertions",
          `assertion file for case \`${id}\` has no prompt file prompts/${id}.{json,yaml} (case ids come from the prompt's \`id\`)`,
        );
    const triggerFile = posix.join(root, "trigger-eval.json");
    if (reader.exists(triggerFile))
      reader.withinPart({ part: "trigger" }, () => {
        const src = reader.read(triggerFile);
        if (src && Array.isArray(src.value)) return; // skill-creator array form: its own loader reads it
        if (src && reader.validate(triggerEvalSchema, src.value, src, [], "suite/trigger-eval")) {
          const v = src.value as { shouldFire: unknown[]; shouldNotFire: unknown[] };
          // A skill with two suite folders (`.agent/evals/<name>/` and its own `evals/`) gets both sets.
          addTriggers(
            draft,
            v.shouldFire.map((q, i) => triggerQuery(q, src, ["shouldFire", i])),
            v.shouldNotFire.map((q, i) => triggerQuery(q, src, ["shouldNotFire", i])),
            src.locate([]),
          );
        }
      });
  },
};

function triggerQuery(q: unknown, src: SourceFile, path: (string | number)[]): TriggerQuery {
  const loc = src.locate(path);
  if (typeof q === "string") return { prompt: q, weight: 1, loc };
  const o = q as { prompt: string; reason?: string; confidence?: string };
  return { prompt: o.prompt, reason: o.reason, weight: o.confidence === "medium" ? 0.5 : 1, loc };
}

export function loadMeta(reader: SuiteReader, file: string): SuiteMeta | undefined {
  const src = reader.read(file);
  if (!src) return undefined;
  if (!reader.validate(metaSchema, src.value, src, [], "suite/meta")) return undefined;
  const v = src.value as Record<string, unknown>;
  const keyLoc: Record<string, SourceLocation> = {};
  for (const k of Object.keys(v)) keyLoc[k] = src.locate([k]);
  for (const k of Object.keys((v.thresholds as object) ?? {}))
    keyLoc[`thresholds.${k}`] = src.locate(["thresholds", k]);
  const oracle = v.oracle as string | { command: string; timeoutSeconds?: number } | undefined;
  return {
    skillVersion: v.skillVersion === undefined ? undefined : String(v.skillVersion),
    suiteVersion: v.suiteVersion === undefined ? undefined : String(v.suiteVersion),
    trials: v.trials as number | undefined,
    thresholds: (v.thresholds as SuiteMeta["thresholds"]) ?? {},
    oracle:
      oracle === undefined
        ? undefined
        : typeof oracle === "string"
          ? { command: oracle, loc: src.locate(["oracle"]) }
          : {
              command: oracle.command,
              timeoutMs: oracle.timeoutSeconds ? oracle.timeoutSeconds * 1000 : undefined,
              loc: src.locate(["oracle"]),
            },
    vars: (v.vars as Record<string, unknown>) ?? {},
    loc: { file, line: 1, column: 1 },
    keyLoc,
  };
}

function loadCase(reader: SuiteReader, root: string, file: string): Case | undefined {
  const src = reader.read(file);
  if (!src) return undefined;
  if (!reader.validate(caseSchema, src.value, src, [], "suite/case")) return undefined;
  const v = src.value as Record<string, unknown>;
  const c: Case = {
    id: String(v.id),
    prompt: String(v.prompt),
    files: reader.caseFiles(v.files, root, src, ["files"]),
    assertions: [],
    vars: (v.vars as Record<string, unknown>) ?? {},
    loc: src.locate([]),
  };
  const stem = posix.basename(file).replace(DATA_FILE, "");
  if (stem !== c.id)
    reader.warn(
      src.locate(["id"]),
      "suite/case-file-name",
      `case id \`${c.id}\` differs from its file name \`${stem}\`; assertions/${c.id}.* is where its assertion file goes`,
    );
  if (Array.isArray(v.assertions))
    v.assertions.forEach((raw, i) => {
      const a = reader.assertion(raw, src, ["assertions", i]);
      if (a) c.assertions.push(a);
    });
  return c;
}
