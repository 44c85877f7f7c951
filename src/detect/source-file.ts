import { type Document, isMap, isNode, isPair, isScalar, isSeq, type Node, parseDocument } from "yaml";
import type { Diagnostic, SourceLocation } from "../model/index.js";
import { indexJson, lookup, type PositionIndex, parseBlockYaml } from "./fast-parse.js";

export type PathSegment = string | number;

/**
 * A YAML or JSON file parsed with positions kept, so that any value (or schema error) can be located.
 * JSON is parsed strictly with `JSON.parse` for its verdict and through `yaml` for positions (YAML 1.2 ⊃ JSON).
 */
export interface SourceFile {
  file: string;
  text: string;
  /** Parsed value, or undefined when the file does not parse. */
  value: unknown;
  diagnostics: Diagnostic[];
  /** Location of the value at `path` (or of its nearest existing ancestor). */
  locate(path: readonly PathSegment[]): SourceLocation;
  /** Location of the key at `path` (falls back to the value). */
  locateKey(path: readonly PathSegment[]): SourceLocation;
  /** A location from a character offset into `text`. */
  at(offset: number): SourceLocation;
}

/** YAML errors after the first few are cascades of the first; a 60 KB line of `a: a: …` yields 40,000. */
export const MAX_SYNTAX_DIAGNOSTICS_PER_FILE = 10;

/** `fastPaths: false` always composes the YAML tree (the reference the fast paths are tested against). */
export function parseSourceFile(file: string, text: string, lineOffset = 0, fastPaths = true): SourceFile {
  return parsed(file, text, lineOffset, fastPaths, false)!;
}

/**
 * A YAML file that the block fast path reads whole (so it has no YAML error): as `parseSourceFile` reads it;
 * undefined for anything else, which the YAML composer is left to read.
 */
export function parseFastOnly(file: string, text: string, lineOffset = 0): SourceFile | undefined {
  return parsed(file, text, lineOffset, true, true);
}

// size: parseSourceFile's body, with the fast-path-only exit; the YAML fallback is one sequence of steps.
function parsed(
  file: string,
  text: string,
  lineOffset: number,
  fastPaths: boolean,
  fastOnly: boolean,
): SourceFile | undefined {
  // Own index of '\n' positions: yaml's LineCounter misses line breaks inside some tokens (a column of 38,396 on
  // a line of 38,388 characters, found by fuzzing), which would put diagnostics outside the file.
  const lineStarts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const isJson = /\.json$/i.test(file);
  const diagnostics: Diagnostic[] = [];
  const at = (offset: number): SourceLocation => {
    const o = Math.max(0, Math.min(offset, text.length));
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= o) lo = mid;
      else hi = mid - 1;
    }
    return { file, line: lo + 1 + lineOffset, column: o - lineStarts[lo]! + 1 };
  };
  // Valid JSON and plain block YAML of one-line scalars (most of what discovery reads) skip the YAML composer.
  if (fastPaths) {
    let fast: { value: unknown; index: () => PositionIndex } | undefined;
    if (isJson) {
      try {
        const value: unknown = JSON.parse(text);
        let built: PositionIndex | undefined;
        fast = { value, index: () => (built ??= indexJson(text)) };
      } catch {
        // Reported (and located) below, with the YAML tree for positions.
      }
    } else {
      const block = parseBlockYaml(text);
      if (block) fast = { value: block.value, index: () => block.index };
    }
    if (fast) {
      const { value, index } = fast;
      return {
        file,
        text,
        value,
        diagnostics,
        locate: (path) => at(lookup(index(), path, false)),
        locateKey: (path) => at(lookup(index(), path, true)),
        at,
      };
    }
    if (fastOnly) return undefined;
  }
  // The yaml parser recurses per nesting level: a long line of `a: a: …` after a `---` overflows the stack
  // (found by fuzzing). That is a syntax error of the file, located at its start, not a crash.
  let doc: Document.Parsed | undefined;
  let unparsable: string | undefined;
  // yaml builds an Error (and its stack) per problem, and a malformed file can hold thousands; their stacks are never
  // read. Fuzzing spent a third of its time capturing them.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true, strict: true });
  } catch (e) {
    unparsable = e instanceof RangeError ? "nesting too deep to parse" : firstLine(String(e));
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  let value: unknown;
  if (isJson) {
    try {
      value = JSON.parse(text);
    } catch (e) {
      diagnostics.push({
        ...jsonErrorLocation(file, text, e as Error, at),
        severity: "error",
        code: "file/json-syntax",
        message: `invalid JSON: ${cleanJsonMessage((e as Error).message)}`,
      });
    }
  } else if (!doc) {
    diagnostics.push({
      ...at(0),
      severity: "error",
      code: "file/yaml-syntax",
      message: `invalid YAML: ${unparsable}`,
    });
  } else {
    for (const err of doc.errors.slice(0, MAX_SYNTAX_DIAGNOSTICS_PER_FILE)) {
      diagnostics.push({
        ...at(err.pos[0]),
        severity: "error",
        code: "file/yaml-syntax",
        message: `invalid YAML: ${firstLine(err.message)}`,
      });
    }
    const more = doc.errors.length - MAX_SYNTAX_DIAGNOSTICS_PER_FILE;
    if (more > 0)
      diagnostics[diagnostics.length - 1]!.message += ` (and ${more} more YAML errors after it, not shown)`;
    if (doc.errors.length === 0) {
      try {
        value = doc.toJS({ maxAliasCount: 100 });
      } catch (e) {
        diagnostics.push({
          ...at(0),
          severity: "error",
          code: "file/yaml-syntax",
          message: firstLine(String(e)),
        });
      }
    }
  }
  const nodeAt = (path: readonly PathSegment[]): { node?: Node; key?: Node } => {
    let node: unknown = doc?.contents;
    let key: Node | undefined;
    for (const seg of path) {
      if (isMap(node)) {
        const pair = node.items.find(
          (it) => isPair(it) && isScalar(it.key) && String(it.key.value) === String(seg),
        );
        if (!pair) break;
        key = isNode(pair.key) ? pair.key : undefined;
        node = pair.value;
      } else if (isSeq(node) && typeof seg === "number") {
        const item = node.items[seg];
        if (item === undefined) break;
        key = undefined;
        node = item;
      } else break;
    }
    return { node: isNode(node) ? node : undefined, key };
  };
  const locate = (path: readonly PathSegment[]) => {
    const { node } = nodeAt(path);
    return at(node?.range?.[0] ?? 0);
  };
  const locateKey = (path: readonly PathSegment[]) => {
    const { node, key } = nodeAt(path);
    return at(key?.range?.[0] ?? node?.range?.[0] ?? 0);
  };
  return { file, text, value, diagnostics, locate, locateKey, at };
}

function firstLine(s: string): string {
  return s.split("\n")[0]!.trim();
}

function cleanJsonMessage(message: string): string {
  return message.replace(/\s*in JSON at position \d+.*$/s, "").replace(/\s*\(line \d+ column \d+\)$/, "");
}

function jsonErrorLocation(
  file: string,
  text: string,
  e: Error,
  at: (o: number) => SourceLocation,
): SourceLocation {
  const pos = /position (\d+)/.exec(e.message);
  if (pos) return at(Number(pos[1]));
  const lc = /line (\d+) column (\d+)/.exec(e.message);
  if (lc) return { file, line: Number(lc[1]), column: Number(lc[2]) };
  // "Unexpected end of JSON input": the end of the file.
  return at(text.length);
}

/** Converts an ajv `instancePath` (`/a/0/b`) into path segments. */
export function pointerToPath(pointer: string): PathSegment[] {
  if (!pointer) return [];
  return pointer
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}
