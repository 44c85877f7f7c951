import { posix } from "node:path";
import type {
  Case,
  CaseShape,
  OracleShape,
  OracleSpec,
  RobustnessProbe,
  SourceLocation,
  SuiteMeta,
  TriggerEvalShape,
  TriggerQuery,
} from "../../model/index.js";
import { assertionFileSchema, caseSchema, metaSchema, triggerEvalSchema } from "../schemas.js";
import type { SourceFile } from "../source-file.js";
import type { SuiteReader } from "../suite-context.js";
import { addTriggers, seedOwnsTriggerFile } from "./skill-creator.js";
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
      // Another shape there is another tool's trigger set (skill-creator's array …); one that does not parse is
      // ours to report.
      (reader.exists(trigger) && seedOwnsTriggerFile(reader, trigger))
    );
  },
  load(reader, root, draft) {
    const metaFile = posix.join(root, "meta.json");
    if (reader.exists(metaFile)) draft.meta = loadMeta(reader, metaFile);
    const assertionFiles = new Map<string, string>();
    for (const f of reader.list(posix.join(root, "assertions"), DATA_FILE))
      assertionFiles.set(posix.basename(f).replace(DATA_FILE, ""), f);
    const seenAssertionFiles = new Set<string>();
    const rephrased: { c: Case; src: SourceFile; part: { part: "case"; caseId: string } }[] = [];
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
            const list = Array.isArray(src.value) ? src.value : src.value.assertions;
            const base = Array.isArray(src.value) ? [] : ["assertions"];
            list.forEach((raw, i) => {
              const a = reader.assertion(raw, src, [...base, i]);
              if (a) c.assertions.push(a);
            });
          }
        }
        // A rephrasing without checks of its own is graded by its original's: checked once all cases are read.
        if (c.probe?.reformulationOf && c.assertions.length === 0) {
          rephrased.push({ c, src: reader.read(file)!, part: { ...part } });
          return undefined;
        }
        return checkProbe(reader, c) ? c : undefined;
      });
      if (c && ok) draft.cases.push(c);
    }
    for (const { c, src, part } of rephrased) {
      const { value: ready, ok } = reader.withinPart(part, () => {
        const original = draft.cases.find((o) => o.id === c.probe!.reformulationOf);
        if (!original) {
          reader.error(
            src.locate(["reformulationOf"]),
            "suite/unknown-reformulation",
            `case \`${c.id}\` rephrases \`${c.probe!.reformulationOf}\`, which this suite does not define`,
          );
          return undefined;
        }
        c.assertions.push(...original.assertions);
        return checkProbe(reader, c) ? c : undefined;
      });
      if (ready && ok) draft.cases.push(ready);
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
        if (!seedOwnsTriggerFile(reader, triggerFile)) return; // another tool's shape: the skill-creator loader reads it
        const src = reader.read(triggerFile);
        if (src && reader.validate(triggerEvalSchema, src.value, src, [], "suite/trigger-eval")) {
          const v = src.value;
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

function triggerQuery(
  q: TriggerEvalShape["shouldFire"][number],
  src: SourceFile,
  path: (string | number)[],
): TriggerQuery {
  const loc = src.locate(path);
  if (typeof q === "string") return { prompt: q, weight: 1, loc };
  return { prompt: q.prompt, reason: q.reason, weight: q.confidence === "medium" ? 0.5 : 1, loc };
}

/**
 * Keys of the seed's meta.json that skillgate accepts (seed suites carry them) but does not act on, and what it does
 * instead: said at the key, so nobody believes they took effect.
 */
const UNREAD_META_KEYS: Record<string, string> = {
  lastRun: "each report records when its run happened",
  evalMode: "the mode a trial runs in comes from its battery (skill, baseline, trigger), not from the suite",
  constraints:
    "every baseline trial gets skillgate's own constraint block (src/plan/constraints.ts); a suite, which a pull request may edit, cannot change what the baseline is told",
};

function loadMeta(reader: SuiteReader, file: string): SuiteMeta | undefined {
  const src = reader.read(file);
  if (!src) return undefined;
  if (!reader.validate(metaSchema, src.value, src, [], "suite/meta")) return undefined;
  const v = src.value;
  for (const [key, instead] of Object.entries(UNREAD_META_KEYS))
    if (key in v)
      reader.warn(src.locate([key]), "suite/meta-unread", `\`${key}\` is not read by skillgate: ${instead}`);
  const keyLoc: Record<string, SourceLocation> = {};
  for (const k of Object.keys(v)) keyLoc[k] = src.locate([k]);
  for (const k of Object.keys(v.thresholds ?? {})) keyLoc[`thresholds.${k}`] = src.locate(["thresholds", k]);
  return {
    skillVersion: v.skillVersion === undefined ? undefined : String(v.skillVersion),
    suiteVersion: v.suiteVersion === undefined ? undefined : String(v.suiteVersion),
    trials: v.trials,
    thresholds: v.thresholds ?? {},
    oracle: oracleSpec(v.oracle, src),
    vars: v.vars ?? {},
    ...(v.robustness ? { robustness: v.robustness } : {}),
    loc: { file, line: 1, column: 1 },
    keyLoc,
  };
}

/**
 * The case's own checks (`checkCase`) and what its robustness probe needs; false when it cannot be graded. An
 * impossible task (`expect: refusal`) needs a `rubric: refusal` check; a solvable control does not (its
 * correctness checks say whether it was solved), and a refusal check it has is turned round (`asControl`).
 */
function checkProbe(reader: SuiteReader, c: Case): boolean {
  if (!reader.checkCase(c)) return false;
  const control = c.probe?.dimension === "refusal-calibration" && c.probe.expect !== "refusal";
  if (control) asControl(c);
  const need: Partial<Record<string, { rubric: string; why: string }>> = {
    "spec-underspecification": { rubric: "stated", why: "whether the agent stated its assumption" },
    ...(control ? {} : { "refusal-calibration": { rubric: "refusal", why: "whether the agent refused" } }),
  };
  const n = c.probe && need[c.probe.dimension];
  if (n && !c.assertions.some((a) => a.rubric === n.rubric))
    reader.error(
      c.loc,
      "suite/probe-rubric",
      `case \`${c.id}\` probes ${c.probe!.dimension}: it needs an assertion with \`rubric: ${n.rubric}\` that checks ${n.why}`,
    );
  return true;
}

/**
 * A solvable control's `rubric: refusal` checks pass when the agent refused: as checks of the control, they would
 * fail exactly when the agent behaves correctly. They are graded the other way round (pass: no refusal), so a
 * correct control never fails and a refused control is a failing check of its own; robustness reads a refusal of
 * the control as that check failing.
 */
function asControl(c: Case): void {
  c.assertions = c.assertions.map((a) => (a.rubric === "refusal" ? { ...a, negate: !a.negate } : a));
}

/** `dimension`, `reformulationOf`, `expect`, `tier` of a case file (a rephrasing probes consistency). */
function probeOf(v: CaseShape): RobustnessProbe | undefined {
  const dimension = v.dimension ?? (v.reformulationOf ? "consistency-under-reformulation" : undefined);
  if (!dimension) return undefined;
  return {
    dimension,
    ...(v.reformulationOf !== undefined ? { reformulationOf: v.reformulationOf } : {}),
    ...(v.expect !== undefined ? { expect: v.expect } : {}),
    ...(v.tier !== undefined ? { tier: v.tier } : {}),
  };
}

/** `oracle:` of meta.json or of a case, as validated: a command string or `{command, timeoutSeconds?}`. */
function oracleSpec(o: OracleShape | undefined, src: SourceFile): OracleSpec | undefined {
  if (o === undefined) return undefined;
  const loc = src.locate(["oracle"]);
  return typeof o === "string"
    ? { command: o, loc }
    : { command: o.command, timeoutMs: o.timeoutSeconds ? o.timeoutSeconds * 1000 : undefined, loc };
}

function loadCase(reader: SuiteReader, root: string, file: string): Case | undefined {
  const src = reader.read(file);
  if (!src) return undefined;
  if (!reader.validate(caseSchema, src.value, src, [], "suite/case")) {
    // The case is out, but its assertions' own errors (init's `TODO-value`) are shown now, not one fix later.
    const v = src.value as { assertions?: unknown } | undefined;
    if (Array.isArray(v?.assertions))
      v.assertions.forEach((raw, i) => {
        reader.assertion(raw, src, ["assertions", i]);
      });
    return undefined;
  }
  const v = src.value;
  const c: Case = {
    id: v.id,
    prompt: v.prompt,
    files: reader.caseFiles(v.files, root, src, ["files"]),
    assertions: [],
    vars: v.vars ?? {},
    ...(v.oracle !== undefined ? { oracle: oracleSpec(v.oracle, src) } : {}),
    loc: src.locate([]),
    promptLoc: src.locate(["prompt"]),
  };
  const probe = probeOf(v);
  if (probe) c.probe = probe;
  const stem = posix.basename(file).replace(DATA_FILE, "");
  if (stem !== c.id)
    reader.warn(
      src.locate(["id"]),
      "suite/case-file-name",
      `case id \`${c.id}\` differs from its file name \`${stem}\`; assertions/${c.id}.* is where its assertion file goes`,
    );
  if (v.assertions)
    v.assertions.forEach((raw, i) => {
      const a = reader.assertion(raw, src, ["assertions", i]);
      if (a) c.assertions.push(a);
    });
  return c;
}
