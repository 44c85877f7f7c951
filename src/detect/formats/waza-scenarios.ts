import type { Assertion, Case } from "../../model/index.js";
import type { PathSegment, SourceFile } from "../source-file.js";
import type { SuiteReader } from "../suite-context.js";
import { notGraded, rubricChecks, warnUnknownKeys } from "./not-graded.js";
import type { SuiteDraft } from "./types.js";

/** Keys of a scenario that dotnet/skills' skill-validator reads (its YAML ignores the rest). */
const SCENARIO_KEYS = new Set([
  "name",
  "prompt",
  "setup",
  "assertions",
  "rubric",
  "timeout",
  "expect_tools",
  "reject_tools",
  "max_turns",
  "max_tokens",
  "expect_activation",
]);

/** skill-validator assertion types and what each becomes; the value is in `value`, a regex in `pattern`. */
const ASSERTIONS: Record<string, { type: string; from: "value" | "pattern"; file?: boolean }> = {
  output_contains: { type: "contains", from: "value" },
  output_not_contains: { type: "not-contains", from: "value" },
  output_matches: { type: "regex", from: "pattern" },
  output_not_matches: { type: "not-regex", from: "pattern" },
  file_exists: { type: "file-exists", from: "value", file: true },
  file_not_exists: { type: "not-file-exists", from: "value", file: true },
  file_contains: { type: "file-contains", from: "value", file: true },
  file_not_contains: { type: "not-file-contains", from: "value", file: true },
};

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => !!v && typeof v === "object" && !Array.isArray(v);

/**
 * The `eval.yaml` dialect of dotnet/skills (its skill-validator, `tests/<plugin>/<skill>/eval.yaml`): a list of
 * `scenarios`, each a `name`, a `prompt`, `assertions` (`output_contains`, `output_matches` …) and a `rubric`
 * of sentences a judge grades. Setup commands, `exit_success` and tool expectations of another harness are
 * "not graded" notices; a scenario without name or prompt is an error of that scenario, as skill-validator
 * rejects it.
 */
export function loadScenarios(reader: SuiteReader, src: SourceFile, draft: SuiteDraft): void {
  const spec = src.value as { scenarios: unknown[] };
  warnUnknownKeys(reader, src, spec, [], new Set(["scenarios"]), "is not read by skill-validator");
  spec.scenarios.forEach((s, i) => {
    const part = { part: "case" as const, caseId: scenarioId(s, i) };
    const { value: c, ok } = reader.withinPart(part, () =>
      loadScenario(reader, src, s, ["scenarios", i], part.caseId),
    );
    if (c && ok) draft.cases.push(c);
  });
}

/** A case id from the scenario's name (`Diagnose build failures` → `diagnose-build-failures`). */
export function scenarioId(s: unknown, i: number): string {
  const name = isObject(s) && typeof s.name === "string" ? s.name : "";
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return slug ? `${i + 1}-${slug}` : `scenario-${i + 1}`;
}

function loadScenario(
  reader: SuiteReader,
  src: SourceFile,
  s: unknown,
  at: PathSegment[],
  id: string,
): Case | undefined {
  if (
    !isObject(s) ||
    typeof s.name !== "string" ||
    s.name.trim() === "" ||
    typeof s.prompt !== "string" ||
    s.prompt.trim() === ""
  ) {
    reader.error(
      src.locate(at),
      "suite/scenario",
      "a scenario needs a `name` and a `prompt` (skill-validator rejects it otherwise)",
    );
    return undefined;
  }
  warnUnknownKeys(reader, src, s, at, SCENARIO_KEYS, "is not read by skill-validator");
  for (const key of ["setup", "expect_tools", "reject_tools", "max_turns", "max_tokens"])
    if (s[key] !== undefined) notGraded(reader, src, [...at, key], `\`${key}\``);
  const assertions: Assertion[] = [];
  if (Array.isArray(s.assertions))
    s.assertions.forEach((a, j) => {
      const path = [...at, "assertions", j];
      const o = isObject(a) ? a : {};
      const map = typeof o.type === "string" ? ASSERTIONS[o.type] : undefined;
      const value = map ? o[map.from] : undefined;
      if (!map || typeof value !== "string" || (map.file && typeof o.path !== "string")) {
        notGraded(reader, src, path, `assertion${typeof o.type === "string" ? ` \`${o.type}\`` : ""}`);
        return;
      }
      const raw: Raw = map.file
        ? map.type.endsWith("file-exists")
          ? { id: `assertion-${j + 1}`, type: map.type, value: o.path }
          : { id: `assertion-${j + 1}`, type: map.type, file: o.path, value }
        : { id: `assertion-${j + 1}`, type: map.type, value };
      const x = reader.assertion(raw, src, path, { foreign: true });
      if (x) assertions.push({ ...x, loc: src.locate(path) });
    });
  assertions.push(...rubricChecks(reader, src, s.rubric, at));
  if (s.expect_activation === true) {
    const x = reader.assertion({ id: "activated", type: "skill-used" }, src, [...at, "expect_activation"], {
      foreign: true,
    });
    if (x) assertions.push({ ...x, loc: src.locateKey([...at, "expect_activation"]) });
  }
  const c: Case = {
    id,
    prompt: s.prompt,
    files: [],
    assertions,
    vars: {},
    loc: src.locate(at),
    literal: true,
  };
  return reader.checkCase(c, "`assertions` (output_contains, output_matches …) or a `rubric`")
    ? c
    : undefined;
}
