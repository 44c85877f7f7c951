import { posix } from "node:path";
import type { Assertion, Case } from "../../model/index.js";
import type { PathSegment, SourceFile } from "../source-file.js";
import type { SuiteReader } from "../suite-context.js";
import { notGraded, warnUnknownKeys } from "./not-graded.js";
import type { SuiteFormatLoader } from "./types.js";

const CONFIG = "axis.config.json";
/** Keys of a scenario: read, or named by a notice (the rest are unknown-key warnings). */
const SCENARIO_KEYS = new Set(["name", "prompt", "judge", "setup", "artifacts"]);

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => !!v && typeof v === "object" && !Array.isArray(v);

/**
 * Netlify AXIS (`npx @netlify/axis run --config <skill>/evals/axis.config.json`), as getsentry/skills writes it:
 * the config's `scenarios` folder holds one JSON scenario per file, `name`, `prompt` and `judge` checks
 * (`{check, weight}`, sentences a model grades). A scenario is a case named after its file; its `judge` checks
 * are `judge` assertions (each passes or fails: the weights are not used); `setup` commands and `artifacts` are
 * "not graded" notices, and the case runs from an empty workspace.
 */
export const axisFormat: SuiteFormatLoader = {
  format: "axis",
  detect(reader, root) {
    return reader.exists(posix.join(root, CONFIG));
  },
  load(reader, root, draft) {
    const config = reader.withinPart({ part: "case" }, () => reader.read(posix.join(root, CONFIG))).value;
    if (!config) return;
    const rel =
      isObject(config.value) && typeof config.value.scenarios === "string"
        ? config.value.scenarios
        : "scenarios";
    const dir = posix.normalize(posix.join(root, rel));
    if (!reader.inside(dir, root) && dir !== root) {
      reader.warn(
        config.locate(["scenarios"]),
        "suite/not-read",
        `scenarios folder \`${rel}\` is outside ${root}/: not read`,
      );
      return;
    }
    for (const file of reader.list(dir, /\.json$/i)) {
      const part = { part: "case" as const, caseId: posix.basename(file, ".json") };
      const { value: c, ok } = reader.withinPart(part, () => loadScenario(reader, file, part.caseId));
      if (c && ok) draft.cases.push(c);
    }
  },
};

function loadScenario(reader: SuiteReader, file: string, id: string): Case | undefined {
  const src = reader.read(file);
  if (!src) return undefined;
  const s = isObject(src.value) ? src.value : {};
  if (typeof s.prompt !== "string" || s.prompt.trim() === "") {
    reader.error(
      src.locate([]),
      "suite/axis-scenario",
      "an AXIS scenario needs a `prompt` (a non-empty string)",
    );
    return undefined;
  }
  warnUnknownKeys(reader, src, s, [], SCENARIO_KEYS, "is not a key of an AXIS scenario");
  if (s.setup !== undefined)
    notGraded(
      reader,
      src,
      ["setup"],
      "`setup` (the case runs from an empty workspace, without what it prepares)",
    );
  if (s.artifacts !== undefined) notGraded(reader, src, ["artifacts"], "`artifacts`");
  const assertions = judgeChecks(reader, src, s.judge);
  const c: Case = {
    id,
    prompt: s.prompt,
    files: [],
    assertions,
    vars: {},
    loc: src.locate([]),
    literal: true,
  };
  return reader.checkCase(c, "`judge` checks (`{check}` sentences a judge grades)") ? c : undefined;
}

/** `judge: [{check, weight}]`: each check a judge assertion at its line. */
function judgeChecks(reader: SuiteReader, src: SourceFile, list: unknown): Assertion[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) return notGraded(reader, src, ["judge"], "`judge` (not a list)");
  return list.flatMap((j, i) => {
    const path: PathSegment[] = ["judge", i];
    const text = isObject(j) && typeof j.check === "string" ? j.check : typeof j === "string" ? j : undefined;
    if (!text?.trim()) return notGraded(reader, src, path, "a judge entry without `check` text");
    const a = reader.assertion({ id: `judge-${i + 1}`, type: "judge", value: text }, src, path, {
      foreign: true,
    });
    return a ? [{ ...a, loc: src.locate(path) }] : [];
  });
}
