// Issue #40: source files under ~400 lines and functions under ~80, each unit of one concern. Lists every file of
// src/ and gates/ over MAX_FILE_LINES lines and every function over MAX_FUNCTION_LINES; one is excused only by a
// written reason beside it, a comment `size: <reason>`:
//   - a file: in the comments before its first statement;
//   - a function: in the comments just above it (or above the statement it starts, `export const f = () => …`)
//     or on its first line.
// The units oversize when the check landed and not split yet are listed in scripts/size-known.json with their
// size then: one may shrink or leave the list (and must leave it once within the limits), never grow.
// Usage: node scripts/size-report.mjs [--all] [--json] [--write-known]   (exit 1 when a unit is new, grown or
// stale in the list)
//   --all          list the excused and known ones too
//   --write-known  rewrite scripts/size-known.json from what is oversize now (only to record a split)
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const MAX_FILE_LINES = 400;
export const MAX_FUNCTION_LINES = 80;
const SOURCE = /\.(ts|mts|cts|mjs|cjs|js)$/;
/** `size:` and a reason of a few words (an empty or one-word "reason" excuses nothing). */
const REASON = /\bsize:\s*(\S.{9,}?)\s*(?:\*\/)?$/m;

/** Lines of a text as `wc -l` counts them (a last line without a newline counts too). */
const lineCount = (text) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);

/** The `size:` reason among the comments `ranges` of `text`, if any. */
function reasonIn(text, ranges) {
  for (const r of ranges ?? []) {
    const m = REASON.exec(text.slice(r.pos, r.end));
    if (m) return m[1];
  }
  return undefined;
}

/** What a reader calls a function node: its name, the variable or property it is assigned to, Class.method. */
function functionName(node) {
  const named = (n) => (n?.name && ts.isIdentifier(n.name) ? n.name.text : n?.name?.getText?.());
  if (named(node)) {
    const owner = ts.isClassLike(node.parent) ? named(node.parent) : undefined;
    return owner ? `${owner}.${named(node)}` : named(node);
  }
  if (ts.isConstructorDeclaration(node)) return `${named(node.parent) ?? "class"}.constructor`;
  const p = node.parent;
  if (p && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p))) {
    return named(p) ?? "<anonymous>";
  }
  return "<anonymous>";
}

const isFunction = (n) =>
  ts.isFunctionDeclaration(n) ||
  ts.isFunctionExpression(n) ||
  ts.isArrowFunction(n) ||
  ts.isMethodDeclaration(n) ||
  ts.isConstructorDeclaration(n) ||
  ts.isGetAccessorDeclaration(n) ||
  ts.isSetAccessorDeclaration(n);

/** A function's reason: in the comments above it or above any enclosing node that starts on its line, or on that line. */
function functionReason(source, node) {
  const text = source.text;
  const line = (pos) => source.getLineAndCharacterOfPosition(pos).line;
  const first = line(node.getStart(source));
  for (let n = node; n && !ts.isSourceFile(n) && line(n.getStart(source)) === first; n = n.parent) {
    const reason = reasonIn(text, ts.getLeadingCommentRanges(text, n.getFullStart()));
    if (reason) return reason;
  }
  const lineEnd = text.indexOf("\n", node.getStart(source));
  const onLine = text.slice(
    source.getPositionOfLineAndCharacter(first, 0),
    lineEnd < 0 ? text.length : lineEnd,
  );
  return REASON.exec(onLine.slice(onLine.indexOf("//") < 0 ? onLine.length : onLine.indexOf("//")))?.[1];
}

/**
 * The oversize units of one file: `{file, lines, reason?}` for the file, `{file, name, line, lines, reason?}` per
 * function. `reason` is the written excuse, when there is one.
 */
export function sizeFindings(path, text) {
  const findings = [];
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const lines = lineCount(text);
  if (lines > MAX_FILE_LINES) {
    const head = source.statements[0]?.getStart(source) ?? text.length;
    findings.push({ file: path, lines, reason: reasonIn(text, [{ pos: 0, end: head }]) });
  }
  const visit = (node) => {
    if (isFunction(node) && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const span = end - start + 1;
      if (span > MAX_FUNCTION_LINES) {
        const name = functionName(node);
        findings.push({
          file: path,
          name,
          line: start + 1,
          lines: span,
          reason: functionReason(source, node),
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return findings;
}

/** Every source file under `dirs` (relative to `root`), sorted. */
export function sourceFiles(root, dirs) {
  const out = [];
  const walk = (dir) => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      const rel = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== "node_modules" && e.name !== "fixtures") walk(rel);
      } else if (e.isFile() && SOURCE.test(e.name) && !/\.(d|test)\.[cm]?[jt]s$/.test(e.name)) out.push(rel);
    }
  };
  for (const d of dirs) walk(d);
  return out.sort();
}

/** The findings of every source file under `dirs` of `root`. */
export function sizeReport(root, dirs = ["src", "gates"]) {
  return sourceFiles(root, dirs).flatMap((f) => sizeFindings(f, readFileSync(join(root, f), "utf8")));
}

/** One finding as a line: `file:line name (N lines)`, and its reason when excused. */
export function describeFinding(f) {
  const where = f.name ? `${f.file}:${f.line} function ${f.name}` : `${f.file} file`;
  const limit = f.name ? MAX_FUNCTION_LINES : MAX_FILE_LINES;
  return `${where}: ${f.lines} lines (over ${limit})${f.reason ? ` — excused: ${f.reason}` : ""}`;
}

/** The key a unit is known by in size-known.json: the file, or `file#function` (line numbers move). */
export const unitKey = (f) => (f.name ? `${f.file}#${f.name}` : f.file);

/**
 * The findings checked against the known list: `unexcused` (no reason, not listed), `grown` (listed, larger than
 * recorded), `stale` (listed keys no longer oversize: the list must say what is true), `known` (listed, not grown).
 */
export function checkSizes(findings, known) {
  const out = { unexcused: [], grown: [], known: [], stale: [] };
  const seen = new Set();
  for (const f of findings.filter((f) => !f.reason)) {
    const limit = known[unitKey(f)];
    seen.add(unitKey(f));
    if (limit === undefined) out.unexcused.push(f);
    else if (f.lines > limit) out.grown.push({ ...f, known: limit });
    else out.known.push(f);
  }
  out.stale = Object.keys(known).filter((k) => !seen.has(k));
  return out;
}

const KNOWN = "scripts/size-known.json";

/** The known list: unit key → lines when listed. */
export function readKnown(root) {
  return JSON.parse(readFileSync(join(root, KNOWN), "utf8")).units;
}

function writeKnown(root, findings) {
  const units = {};
  for (const f of findings.filter((f) => !f.reason).sort((a, b) => unitKey(a).localeCompare(unitKey(b)))) {
    units[unitKey(f)] = Math.max(units[unitKey(f)] ?? 0, f.lines);
  }
  const why =
    "Units over the size limits (scripts/size-report.mjs) when the check landed, not split yet (issue #40): " +
    "each may shrink or leave this list, never grow; a new one needs a split or a `size:` reason beside it.";
  writeFileSync(join(root, KNOWN), `${JSON.stringify({ why, units }, null, 2)}\n`);
}

function main(argv) {
  const flags = new Set(argv);
  const root = resolve(fileURLToPath(import.meta.url), "../..");
  const findings = sizeReport(root);
  if (flags.has("--write-known")) return writeKnown(root, findings);
  if (flags.has("--json")) return process.stdout.write(`${JSON.stringify(findings, null, 2)}\n`);
  const c = checkSizes(findings, readKnown(root));
  const say = (s) => process.stdout.write(`${s}\n`);
  for (const f of c.unexcused) say(`NEW ${describeFinding(f)}`);
  for (const f of c.grown) say(`GROWN ${describeFinding(f)} (listed at ${f.known} in ${KNOWN})`);
  for (const k of c.stale) say(`STALE ${k}: within the limits now; take it out of ${KNOWN}`);
  if (flags.has("--all")) {
    for (const f of c.known) say(`known ${describeFinding(f)}`);
    for (const f of findings.filter((f) => f.reason)) say(`excused ${describeFinding(f)}`);
  }
  const files = (list) => list.filter((f) => !f.name).length;
  const listed = [...c.known, ...c.grown];
  say(
    `${files(listed)} file(s) over ${MAX_FILE_LINES} lines and ${listed.length - files(listed)} function(s) over ` +
      `${MAX_FUNCTION_LINES} listed as known; ${findings.filter((f) => f.reason).length} excused by a reason; ` +
      `${c.unexcused.length} new, ${c.grown.length} grown, ${c.stale.length} stale`,
  );
  process.exitCode = c.unexcused.length + c.grown.length + c.stale.length ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  main(process.argv.slice(2));
