/**
 * Reads stored JSON reports (`merge`, the Action's `report` mode). A report comes from another job, so it is
 * validated in full against its JSON Schema, which scripts/report-schema.mjs derives from the `Report` type: one
 * source for the shape, and no field the merge, the verdict check or the posting reads is taken on trust.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { InputError } from "../model/diagnostics.js";
import type { Report } from "../model/report.js";
import type { LoadedReport } from "./merge.js";
import reportSchema from "./report.schema.json" with { type: "json" };

/**
 * Reads report files; a directory contributes every `*.json` directly inside it, in name order (what
 * `actions/download-artifact` with `merge-multiple: true` leaves behind).
 */
export async function loadReports(paths: string[]): Promise<LoadedReport[]> {
  const files: string[] = [];
  for (const p of paths) {
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(p);
    } catch {
      throw new InputError(`${p}: no such report file or directory`);
    }
    if (info.isDirectory()) {
      const names = (await readdir(p)).filter((n) => n.endsWith(".json")).sort();
      if (names.length === 0) throw new InputError(`${p}: directory holds no *.json report`);
      files.push(...names.map((n) => join(p, n)));
    } else files.push(p);
  }
  return Promise.all(
    files.map(async (f) => ({ source: f, report: parseReport(await readFile(f, "utf8"), f) })),
  );
}

/** 1-based line and column of a character offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

let validateReport: ValidateFunction | undefined;

/** Parses a skillgate JSON report and checks it against the report's schema; errors are `file:line:column: …`. */
export function parseReport(text: string, file: string): Report {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message;
    const pos = /position (\d+)/.exec(msg);
    const { line, column } = pos ? lineColumn(text, Number(pos[1])) : { line: 1, column: 1 };
    throw new InputError(`${file}:${line}:${column}: not valid JSON: ${msg}`);
  }
  const fail = (what: string) => {
    throw new InputError(`${file}:1:1: not a skillgate report: ${what}`);
  };
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail("expected a JSON object");
  const r = value as Partial<Report>;
  // The two facts that say which schema applies first, in words a person running `merge` on the wrong file reads.
  if (r.schemaVersion !== 2) fail(`schemaVersion must be 2, got ${JSON.stringify(r.schemaVersion)}`);
  if (r.tool?.name !== "skillgate") fail(`tool.name must be "skillgate"`);
  validateReport ??= new Ajv({ allErrors: true, strict: false }).compile(reportSchema);
  if (!validateReport(value)) fail(schemaErrors(validateReport.errors ?? []));
  return value as Report;
}

/** The first few schema errors, each at its JSON pointer (`/skills/0/roots/1/line must be number`). */
function schemaErrors(errors: readonly ErrorObject[]): string {
  const said = errors.slice(0, 5).map((e) => {
    const key = e.keyword === "additionalProperties" ? ` \`${String(e.params.additionalProperty)}\`` : "";
    return `${e.instancePath || "/"} ${e.message ?? "is invalid"}${key}`;
  });
  const more = errors.length > 5 ? `; and ${errors.length - 5} more` : "";
  return `${said.join("; ")}${more}`;
}
