import type { Assertion, Case } from "../../model/index.js";
import type { PathSegment, SourceFile } from "../source-file.js";
import type { SuiteReader } from "../suite-context.js";
import { notGraded, rubricChecks, warnUnknownKeys } from "./not-graded.js";
import { workspaceFiles } from "./skillgrade.js";
import type { SuiteDraft } from "./types.js";
import { scenarioId } from "./waza-scenarios.js";

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => !!v && typeof v === "object" && !Array.isArray(v);

/** Top-level keys of a Vally eval file that skillgate reads or passes over without a word. */
const TOP_KEYS = new Set(["name", "description", "type", "skill", "stimuli"]);
/** Keys of a Vally stimulus. */
const STIMULUS_KEYS = new Set([
  "name",
  "prompt",
  "environment",
  "graders",
  "rubric",
  "timeout",
  "tags",
  "turns",
]);

/** Vally output graders and the skillgate check each is; the text is in `config.substring` or `config.pattern`. */
const GRADERS: Record<string, { type: string; from: "substring" | "pattern" }> = {
  "output-contains": { type: "contains", from: "substring" },
  "output-not-contains": { type: "not-contains", from: "substring" },
  "output-matches": { type: "regex", from: "pattern" },
  "output-not-matches": { type: "not-regex", from: "pattern" },
};

/**
 * Vally's eval file (dotnet/skills, `tests/<plugin>/<skill>/eval.yaml` or `eval.vally.yaml`): a list of `stimuli`,
 * each a `name`, a `prompt`, `environment.files` copied into the workspace, output graders and a `rubric` of
 * sentences a judge grades (Vally's `prompt` grader). Graders with no skillgate equivalent (`exit-success` …) are
 * "not graded" notices; a stimulus without name or prompt is an error of that stimulus.
 */
export function loadVally(reader: SuiteReader, src: SourceFile, root: string, draft: SuiteDraft): void {
  const spec = src.value as { stimuli: unknown[] } & Raw;
  warnUnknownKeys(reader, src, spec, [], TOP_KEYS, "is not read by skillgate from a Vally file");
  spec.stimuli.forEach((s, i) => {
    const part = { part: "case" as const, caseId: scenarioId(s, i) };
    const { value: c, ok } = reader.withinPart(part, () =>
      loadStimulus(reader, src, s, ["stimuli", i], part.caseId, root),
    );
    if (c && ok) draft.cases.push(c);
  });
}

function loadStimulus(
  reader: SuiteReader,
  src: SourceFile,
  s: unknown,
  at: PathSegment[],
  id: string,
  root: string,
): Case | undefined {
  if (isObject(s) && s.prompt === undefined && Array.isArray(s.turns)) {
    // A conversation of several user turns, graded after the last: a skillgate case is one prompt.
    notGraded(reader, src, at, "stimulus of several `turns` (a case is one prompt)");
    return undefined;
  }
  if (!isObject(s) || typeof s.name !== "string" || typeof s.prompt !== "string" || s.prompt.trim() === "") {
    reader.error(src.locate(at), "suite/vally-stimulus", "a Vally stimulus needs a `name` and a `prompt`");
    return undefined;
  }
  warnUnknownKeys(reader, src, s, at, STIMULUS_KEYS, "of a Vally stimulus is not read");
  const env = isObject(s.environment) ? s.environment : {};
  for (const key of Object.keys(env))
    if (key !== "files") notGraded(reader, src, [...at, "environment", key], `\`environment.${key}\``);
  const assertions: Assertion[] = [];
  (Array.isArray(s.graders) ? s.graders : []).forEach((g, j) => {
    const path = [...at, "graders", j];
    const type = isObject(g) && typeof g.type === "string" ? g.type : undefined;
    if (type === "prompt") return; // grades the stimulus' `rubric`, read below
    const map = type ? GRADERS[type] : undefined;
    const config = isObject(g) && isObject(g.config) ? g.config : {};
    const value = map ? config[map.from] : undefined;
    if (!map || typeof value !== "string") {
      notGraded(reader, src, path, `grader${type ? ` \`${type}\`` : ""}`);
      return;
    }
    const x = reader.assertion({ id: `grader-${j + 1}`, type: map.type, value }, src, path, {
      foreign: true,
    });
    if (x) assertions.push({ ...x, loc: src.locate(path) });
  });
  assertions.push(...rubricChecks(reader, src, s.rubric, at));
  const c: Case = {
    id,
    prompt: s.prompt,
    files: workspaceFiles(reader, src, env.files, [...at, "environment", "files"], root),
    assertions,
    vars: {},
    loc: src.locate(at),
    literal: true,
  };
  return reader.checkCase(c, "output graders (`output-contains` …) or a `rubric`") ? c : undefined;
}
