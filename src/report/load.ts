import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { InputError } from "../model/diagnostics.js";
import { type LoadedReport, parseReport } from "./merge.js";

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
