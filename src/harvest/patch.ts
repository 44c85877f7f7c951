/**
 * Harvest's proposals as a suite patch the user reviews: the new text of every file it touches (assertions
 * appended to a case's list, a case marked, new case files for a prompts file's tasks) and a unified diff that
 * `git apply` takes from the repository root. Nothing is written into the repository.
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { type Document, isMap, isSeq, parseDocument, stringify, type YAMLSeq } from "yaml";
import type { Case, CaseShape, HarvestProposal } from "../model/index.js";

/** A case harvest read from a prompts file: the patch writes it as a new case file with its proposals. */
export interface NewCase {
  file: string;
  caseDef: Case;
  /** The case as written in the prompts file (id, prompt, files, vars, assertions). */
  written: CaseShape;
}

/** New text per repository-relative file, for the proposals (grouped by their `file`) and new cases. */
export function patchFiles(
  repoDir: string,
  proposals: readonly HarvestProposal[],
  newCases: readonly NewCase[] = [],
): Map<string, string> {
  const out = new Map<string, string>();
  const byFile = new Map<string, HarvestProposal[]>();
  for (const p of proposals) if (p.file) byFile.set(p.file, [...(byFile.get(p.file) ?? []), p]);
  for (const nc of newCases) {
    const added = (byFile.get(nc.file) ?? []).filter((p) => p.kind !== "mark-discriminator");
    byFile.delete(nc.file);
    const written: CaseShape = { ...nc.written, id: nc.caseDef.id, prompt: nc.caseDef.prompt };
    const assertions = [...(written.assertions ?? []), ...added.map((p) => p.assertion)];
    const doc = parseDocument("{}");
    doc.contents = doc.createNode({ ...written, assertions }) as unknown as typeof doc.contents;
    out.set(
      nc.file,
      `# Harvested by skillgate harvest: review before committing.\n${doc.toString({ lineWidth: 0 })}`,
    );
  }
  for (const [file, ps] of byFile) {
    const abs = join(repoDir, file);
    const text = existsSync(abs) ? readFileSync(abs, "utf8") : "";
    out.set(file, file.endsWith(".json") ? patchJson(text, ps) : patchYaml(text, ps));
  }
  return out;
}

/** The list a file's assertions live in: the root list, or `assertions:` (created when absent). */
function assertionList(doc: Document): YAMLSeq {
  if (isSeq(doc.contents)) return doc.contents;
  if (!isMap(doc.contents)) doc.contents = doc.createNode({}) as unknown as typeof doc.contents;
  const map = doc.contents as unknown as { get(k: string): unknown; set(k: string, v: unknown): void };
  if (!isSeq(map.get("assertions"))) map.set("assertions", doc.createNode([]));
  return map.get("assertions") as YAMLSeq;
}

/**
 * Appends to a YAML file's assertion list as text, so the rest of the file (its comments, its layout) stays as
 * written and the diff shows only what harvest adds; a flow-style or missing list is written by the library.
 */
function patchYaml(text: string, ps: readonly HarvestProposal[]): string {
  const doc = parseDocument(text === "" ? "[]" : text);
  const list = text === "" ? undefined : existingBlockList(doc);
  if (!list) return rewriteYaml(doc, ps);
  const edits: { at: number; text: string }[] = [];
  const itemIndent = columnOf(text, list.range![0]);
  const appended = ps
    .filter((p) => p.kind !== "mark-discriminator")
    .map((p) => indent(stringify([p.assertion], { lineWidth: 0 }), itemIndent))
    .join("");
  if (appended) edits.push({ at: lineEnd(text, list.range![1]), text: appended });
  for (const p of ps.filter((x) => x.kind === "mark-discriminator")) {
    const item = list.items.find((i) => isMap(i) && i.get("id") === p.assertion.id);
    if (!isMap(item) || item.flow || !item.range) return rewriteYaml(doc, ps);
    const keyIndent = columnOf(text, item.range[0]);
    edits.push({ at: lineEnd(text, item.range[1]), text: `${" ".repeat(keyIndent)}discriminator: true\n` });
  }
  let out = text.endsWith("\n") ? text : `${text}\n`;
  for (const e of edits.sort((a, b) => b.at - a.at)) out = `${out.slice(0, e.at)}${e.text}${out.slice(e.at)}`;
  return out;
}

/** The block-style assertion list with items, if the file has one (else undefined: rewrite). */
function existingBlockList(doc: Document): YAMLSeq | undefined {
  const list = isSeq(doc.contents)
    ? doc.contents
    : isMap(doc.contents)
      ? (doc.contents as unknown as { get(k: string): unknown }).get("assertions")
      : undefined;
  return isSeq(list) && !list.flow && list.items.length > 0 && list.range ? list : undefined;
}

function rewriteYaml(doc: Document, ps: readonly HarvestProposal[]): string {
  const list = assertionList(doc);
  for (const p of ps) {
    if (p.kind === "mark-discriminator") {
      const item = list.items.find((i) => isMap(i) && i.get("id") === p.assertion.id);
      if (isMap(item)) item.set("discriminator", true);
    } else list.add(doc.createNode(p.assertion));
  }
  return doc.toString({ lineWidth: 0 });
}

function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf("\n", offset - 1) + 1);
}

/** The offset just past the line holding `offset - 1` (where a node ending at `offset` ends its line). */
function lineEnd(text: string, offset: number): number {
  const nl = text.indexOf("\n", Math.max(0, offset - 1));
  return nl < 0 ? text.length + 1 : nl + 1;
}

function indent(block: string, n: number): string {
  const pad = " ".repeat(n);
  return block
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => `${pad}${l}\n`)
    .join("");
}

function patchJson(text: string, ps: readonly HarvestProposal[]): string {
  const value = (text.trim() === "" ? [] : JSON.parse(text)) as unknown;
  const holder = value as Record<string, unknown>;
  if (!Array.isArray(value) && !Array.isArray(holder.assertions)) holder.assertions = [];
  const list = (Array.isArray(value) ? value : holder.assertions) as Record<string, unknown>[];
  for (const p of ps) {
    if (p.kind === "mark-discriminator") {
      const item = list.find((i) => i.id === p.assertion.id);
      if (item) item.discriminator = true;
    } else list.push(p.assertion);
  }
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** A unified diff of `files` against the repository (`git diff --no-index`; `git apply` takes it at the root). */
export async function unifiedDiff(repoDir: string, files: ReadonlyMap<string, string>): Promise<string> {
  const tmp = await mkdtemp(join(tmpdir(), "skillgate-harvest-"));
  try {
    for (const [rel, text] of files) {
      const abs = join(repoDir, rel);
      if (existsSync(abs)) await put(join(tmp, "a", rel), readFileSync(abs, "utf8"));
      await put(join(tmp, "b", rel), text);
    }
    await mkdir(join(tmp, "a"), { recursive: true });
    const r = await execa("git", ["diff", "--no-index", "--no-color", "a", "b"], { cwd: tmp, reject: false });
    if (r.exitCode !== 0 && r.exitCode !== 1) throw new Error(`git diff failed: ${r.stderr}`);
    // `git diff --no-index a b` names files a/a/<rel> and b/b/<rel>: one folder too many for `git apply`.
    return r.stdout
      .replace(/^diff --git a\/[ab]\/(\S+) b\/[ab]\/(\S+)$/gm, "diff --git a/$1 b/$2")
      .replace(/^(---|\+\+\+) ([ab])\/[ab]\//gm, "$1 $2/")
      .concat(r.stdout ? "\n" : "");
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

async function put(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}
