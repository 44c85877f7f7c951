/**
 * Harvest's `--prompts FILE`: representative tasks before a suite exists. A YAML or JSON list (or `{cases: [...]}`)
 * of prompts, each a string or a case in the seed format (`id`, `prompt`, optional `files`, `vars`, `assertions`:
 * a reference answer or a gate the harvest grades with). Inside the repository, `files` are relative to the
 * prompts file's folder, as a suite's are to its folder.
 */
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { caseSchema } from "../detect/schemas.js";
import { parseSourceFile } from "../detect/source-file.js";
import { type AssertionTypeLookup, SuiteReader } from "../detect/suite-context.js";
import { type Case, type CaseShape, formatDiagnostic, InputError } from "../model/index.js";

export interface PromptsFileCase {
  caseDef: Case;
  /** As written (string items become `{id, prompt}`), for the new case file the patch writes. */
  written: CaseShape;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

export function loadPromptsFile(
  repoDir: string,
  file: string,
  lookup: AssertionTypeLookup,
): PromptsFileCase[] {
  const abs = resolve(file);
  const rel = relative(resolve(repoDir), abs);
  const inside = rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
  const shown = inside ? rel.split("\\").join("/") : abs;
  let text: string;
  try {
    text = readFileSync(abs, "utf8");
  } catch (e) {
    throw new InputError(`${shown}: cannot read the prompts file: ${(e as Error).message}`);
  }
  const src = parseSourceFile(shown, text);
  const reader = new SuiteReader(repoDir, lookup);
  reader.diagnostics.push(...src.diagnostics);
  const list = Array.isArray(src.value)
    ? src.value
    : Array.isArray((src.value as { cases?: unknown } | undefined)?.cases)
      ? ((src.value as { cases: unknown[] }).cases as unknown[])
      : undefined;
  const base = Array.isArray(src.value) ? [] : ["cases"];
  if (src.value !== undefined && !list)
    reader.error(
      src.locate([]),
      "harvest/prompts",
      "a prompts file is a list of prompts (or `{cases: [...]}`)",
    );
  const out: PromptsFileCase[] = [];
  (list ?? []).forEach((item, i) => {
    const path = [...base, i];
    const written =
      typeof item === "string"
        ? { id: `prompt-${i + 1}`, prompt: item }
        : { id: `prompt-${i + 1}`, ...(item as Record<string, unknown>) };
    if (!reader.validate(caseSchema, written, src, path, "harvest/case")) return;
    if (!ID.test(written.id)) return;
    const raw = written;
    let files: Case["files"] = [];
    if (raw.files && inside) files = reader.caseFiles(raw.files, dirname(shown), src, [...path, "files"]);
    else if (raw.files)
      reader.error(
        src.locate([...path, "files"]),
        "harvest/files",
        "`files` need the prompts file inside the repository (they are read relative to it)",
      );
    const assertions = raw.assertions
      ? raw.assertions.flatMap((a, k) => reader.assertion(a, src, [...path, "assertions", k]) ?? [])
      : [];
    out.push({
      caseDef: {
        id: raw.id,
        prompt: raw.prompt,
        files,
        assertions,
        vars: raw.vars ?? {},
        loc: src.locate(path),
        promptLoc: src.locate(typeof item === "string" ? path : [...path, "prompt"]),
      },
      written,
    });
  });
  const ids = new Set<string>();
  for (const c of out) {
    if (ids.has(c.caseDef.id))
      reader.error(c.caseDef.loc, "harvest/duplicate-case", `case id \`${c.caseDef.id}\` appears twice`);
    ids.add(c.caseDef.id);
  }
  const errors = reader.diagnostics.filter((d) => d.severity === "error");
  if (errors.length) throw new InputError(errors.map(formatDiagnostic).join("\n"), errors);
  if (out.length === 0) throw new InputError(`${shown}: the prompts file holds no prompt`);
  return out;
}
