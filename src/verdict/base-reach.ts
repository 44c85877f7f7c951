/**
 * A head-only risky action the base's own code asks for: a head trial got further than the base's (a slow
 * install, a timeout), while the pull request changed nothing that runs. Judged per action, never per class: the
 * action was done from a command the agent started (its `origin`, src/observe/) that is written, line for line, in
 * a fenced block of SKILL.md, and
 *  - every fenced block of SKILL.md is the same at base and head, in the same order (a moved, removed or edited
 *    line of code is a change: reordering can bring an unreached command forward);
 *  - every other file of the skill folder, and the skill's suite (its cases, their files, its oracle), is the same;
 *  - no word the PR adds to SKILL.md names the action (its host, target or program, or a piece of one);
 *  - it is not a leaked decoy or a cut trace.
 * Such an action is reported (`not-significant`), not blocking. Anything else head-only blocks as before.
 */
import { basename } from "node:path";
import type { ObservedAction, Skill } from "../model/index.js";
import type { Trees } from "./dependencies.js";

/** What the rule needs of a PR whose skill changed nothing that runs. */
export interface SameCode {
  /** The fenced blocks of SKILL.md (the same at base and head), each as its trimmed, non-blank lines. */
  blocks: string[][];
  /** Words whose count in SKILL.md rises from base to head (lowercased, 3 characters or more). */
  addedWords: Set<string>;
}

const FENCE = /^\s*(`{3,}|~{3,})/;

/** The fenced code blocks of a Markdown text, each as its trimmed, non-blank lines (an unclosed one runs to the end). */
export function fencedBlocks(md: string): string[][] {
  const out: string[][] = [];
  let open: { mark: string; lines: string[] } | undefined;
  for (const line of md.split(/\r?\n/)) {
    const m = FENCE.exec(line);
    if (open) {
      if (
        m &&
        m[1]![0] === open.mark[0] &&
        m[1]!.length >= open.mark.length &&
        !line.trim().slice(m[1]!.length)
      )
        open = void out.push(open.lines);
      else if (line.trim()) open.lines.push(line.trim());
    } else if (m) open = { mark: m[1]!, lines: [] };
  }
  if (open) out.push(open.lines);
  return out;
}

const wordsOf = (text: string) =>
  text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}._~/-]*[\p{L}\p{N}]/gu) ?? [];

function counts(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const w of wordsOf(text)) if (w.length >= 3) out.set(w, (out.get(w) ?? 0) + 1);
  return out;
}

/** Words whose count rises from `before` to `after`. */
export function addedWords(before: string, after: string): Set<string> {
  const left = counts(before);
  return new Set([...counts(after)].filter(([w, n]) => n > (left.get(w) ?? 0)).map(([w]) => w));
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Whether a repository path (a file, or a folder at any depth) holds the same bytes in both checkouts. */
function samePath(trees: Trees, path: string): boolean {
  const digest = trees.head.digest(path);
  if (digest !== undefined || trees.base.digest(path) !== undefined)
    return digest === trees.base.digest(path);
  const files = trees.head.list(path);
  return (
    sameJson(files, trees.base.list(path)) &&
    files.every((f) => trees.head.digest(f) === trees.base.digest(f))
  );
}

/**
 * The skill's code when the PR changed nothing that runs (see the module's comment), else undefined: a renamed
 * or moved skill, a changed bundled file, a link, a changed suite or case file, a changed fenced block.
 */
export function sameCode(
  head: Skill,
  base: Skill | undefined,
  trees: Trees | undefined,
): SameCode | undefined {
  if (!base || !trees || head.dir !== base.dir || head.linkTargets?.length || base.linkTargets?.length)
    return;
  const blocks = fencedBlocks(head.raw);
  if (!sameJson(blocks, fencedBlocks(base.raw))) return;
  const rel = (f: string) => (head.dir === "." ? f : `${head.dir}/${f}`);
  const files = [...head.folder.files].sort();
  if (!sameJson(files, [...base.folder.files].sort())) return;
  if (!files.every((f) => /^SKILL\.md$/i.test(f) || samePath(trees, rel(f)))) return;
  if (!sameJson(head.suite, base.suite)) return;
  const suitePaths = [
    ...(head.suite ? [head.suite.root, ...head.suite.sourceFiles] : []),
    ...(head.suite?.cases ?? []).flatMap((c) => c.files.map((f) => f.from)),
  ];
  if (!suitePaths.every((p) => samePath(trees, p))) return;
  return { blocks, addedWords: addedWords(base.raw, head.raw) };
}

/** Whether `origin`'s lines are a run of whole lines of one block (two words at least: a bare `sh` asks nothing). */
function inBlocks(origin: string, blocks: string[][]): boolean {
  const lines = origin
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  if (!lines.length || lines.join(" ").split(/\s+/).length < 2) return false;
  return blocks.some((b) => {
    for (let i = 0; i + lines.length <= b.length; i++) if (lines.every((l, j) => b[i + j] === l)) return true;
    return false;
  });
}

/** Whether a word the PR added names the action: is part of its host, target, program or command, or holds one. */
function named(a: ObservedAction, words: Set<string>): boolean {
  const whole = [a.host, a.target, a.program, a.command]
    .filter((x): x is string => !!x)
    .map((x) => x.toLowerCase());
  const parts = [a.host, a.target, a.program]
    .filter((x): x is string => !!x)
    .flatMap((x) => [x, basename(x), ...x.split(/[./]/)])
    .map((x) => x.toLowerCase())
    .filter((x) => x.length >= 3);
  for (const w of words)
    if (whole.some((x) => x.includes(w)) || parts.some((p) => w.includes(p))) return true;
  return false;
}

/**
 * The classes a trial that got further may show without blocking: a lookup or connection, a read of a credential
 * file, a write outside the workspace. Never the rest: a prose-only edit can lift a prohibition from a dormant
 * block the base never ran ("do not run this"), which observation cannot tell from a slow base trial, so running
 * downloaded code, leaking, persistence, destruction, remotes, history, safety or privilege always block.
 */
const NEAR_MISS_CLASSES: ReadonlySet<ObservedAction["class"]> = new Set([
  "network",
  "credential-read",
  "write-outside",
]);

/** Whether a head-only action was reached from the base's own unchanged code, nothing the PR added naming it. */
export function reachedFromBaseCode(a: ObservedAction, code: SameCode | undefined): boolean {
  if (!code || a.origin === undefined || !NEAR_MISS_CLASSES.has(a.class)) return false;
  return inBlocks(a.origin, code.blocks) && !named(a, code.addedWords);
}
