/**
 * A static review of what a pull request adds to a skill's folder, reading every byte (no read limit a padding
 * could push a payload past): files that are not text a reviewer can read (compiled code, executables,
 * archives, documents that can carry macros), invisible Unicode (tag characters, zero-width and bidi controls;
 * not a joiner inside an emoji or between letters of a script that uses it), text pushed out of sight by
 * padding, strings decoded (or downloaded) and then run, and the hosts it names for the first time. Diff-aware:
 * only what the PR adds counts (a changed file's added lines, a new or changed binary file).
 */
import { type AddedLine, addedLines } from "../util/added-lines.js";
import { binaryKind, MEDIA } from "./binary-kind.js";
import { INVISIBLE, invisibleReason } from "./invisible.js";

export type StaticClass =
  | "binary"
  | "invisible-unicode"
  | "hidden-text"
  | "decode-run"
  | "download-run"
  | "new-host";

export interface StaticFinding {
  class: StaticClass;
  /** Path relative to the skill folder. */
  file: string;
  line: number;
  message: string;
  /** New hosts and downloads run are reported for a reviewer to look at (visible in the diff); the rest blocks. */
  blocking: boolean;
}

/** A download run as it arrives: reviewable in the diff (its URL is there), so reported; running it is observed. */
const DOWNLOAD_RUN: [RegExp, string][] = [
  [
    /\b(?:curl|wget|fetch|irm|iwr|Invoke-WebRequest|Invoke-RestMethod)\b[^|;&\n]*\|\s*(?:sudo\s+)?(?:env\s+)?(?:(?:ba|da|z|k)?sh|iex|Invoke-Expression)\b/i,
    "a download piped into a shell",
  ],
  // An interpreter with no script of its own (`| python3`, `| python3 -`) runs what it reads.
  [
    /\b(?:curl|wget)\b[^|;&\n]*\|\s*(?:sudo\s+)?(?:python[\d.]*|perl|ruby|node)(?:\s+-)?\s*(?:$|[;&|)`'"])/,
    "a download piped into an interpreter",
  ],
  [
    /\b(?:ba|z)?sh\s+<\(\s*(?:curl|wget)\b|\beval\s+["']?\$\(\s*(?:curl|wget)\b/,
    "a download run by the shell",
  ],
];

/** Text decoded and then run: nothing a reviewer can read in the diff. */
const DECODE_RUN: [RegExp, string][] = [
  [
    /\bbase64\s+(?:-d|--decode|-D)\b[^\n]*\|\s*(?:sudo\s+)?(?:(?:ba|da|z|k)?sh|python[\d.]*|perl|ruby|node)\b/,
    "decoded base64 piped into a shell",
  ],
  [/\beval\s+["']?\$\([^)\n]*base64\s+(?:-d|--decode)/, "decoded base64 given to eval"],
  [
    /\bexec\s*\(\s*(?:base64\.b64decode|codecs\.decode|bytes\.fromhex|zlib\.decompress|marshal\.loads|__import__\(\s*["']base64)/,
    "decoded text given to Python's exec",
  ],
  [
    /\beval\s*\(\s*(?:atob|Buffer\.from\([^)\n]*["'](?:base64|hex)["'])/,
    "decoded text given to JavaScript's eval",
  ],
  [/\b(?:new\s+)?Function\s*\(\s*atob\s*\(/, "decoded text made into a JavaScript function"],
  [/\beval\s*\(\s*(?:base64_decode|gzinflate|str_rot13)\s*\(/, "decoded text given to PHP's eval"],
  [
    /\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]*\s-(?:e|ec|enc|encodedcommand)\s+[A-Za-z0-9+/=]{16,}/i,
    "an encoded PowerShell command",
  ],
  [
    /\[Convert\]::FromBase64String[^\n]*\|\s*(?:iex|Invoke-Expression)\b|\b(?:iex|Invoke-Expression)\s*\(?\s*\[System\.Text\.Encoding\]/i,
    "decoded text run by PowerShell",
  ],
];

const HOST =
  /\bhttps?:\/\/([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+)(?::\d+)?/gi;
/** Hosts every skill may name: documentation and example domains, loopback. */
const HARMLESS_HOST =
  /^(?:localhost|127\.0\.0\.1|0\.0\.0\.0|(?:.*\.)?example\.(?:com|org|net)|.*\.(?:example|test|invalid|localhost))$/;

/** Hosts named in a text. */
export function hostsIn(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(HOST)) out.add(m[1]!.toLowerCase());
  return out;
}

/** Blank lines in a row (or spaces on one line) that push what follows out of a reader's sight. */
const PADDING_LINES = 400;
const PADDING_COLUMNS = 2000;

/** Where a line follows `PADDING_LINES` blank lines or `PADDING_COLUMNS` spaces (the index of its text), in one pass. */
function paddedAt(text: string): number | undefined {
  let blank = 0;
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    let i = start;
    while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9 || text.charCodeAt(i) === 13))
      i++;
    if (i === end) blank++;
    else if (blank >= PADDING_LINES || i - start >= PADDING_COLUMNS) return i;
    else blank = 0;
    start = end + 1;
  }
  return undefined;
}

/** The part of a file a review looks at: all of a new file, the lines a changed one adds (joined, each mapped back). */
interface Scanned {
  text: string;
  /** The file's line number of a position in `text`. */
  lineAt(index: number): number;
}

function scanned(head: string, added: AddedLine[] | undefined): Scanned {
  if (!added) {
    let starts: number[] | undefined;
    return {
      text: head,
      lineAt(index) {
        if (!starts) {
          starts = [0];
          for (let i = head.indexOf("\n"); i >= 0; i = head.indexOf("\n", i + 1)) starts.push(i + 1);
        }
        let lo = 0;
        let hi = starts.length - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (starts[mid]! <= index) lo = mid;
          else hi = mid - 1;
        }
        return lo + 1;
      },
    };
  }
  const offsets: number[] = [];
  let at = 0;
  for (const l of added) {
    offsets.push(at);
    at += l.text.length + 1;
  }
  return {
    text: added.map((l) => l.text).join("\n"),
    lineAt(index) {
      let lo = 0;
      let hi = offsets.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (offsets[mid]! <= index) lo = mid;
        else hi = mid - 1;
      }
      return added[lo]?.line ?? 1;
    },
  };
}

/** Words a download-and-run or decode-and-run line holds at least one of: the detailed patterns run on those lines only. */
const RUN_WORDS = /curl|wget|fetch|base64|eval|exec|Function|powershell|pwsh|FromBase64|irm|iwr|Invoke-/i;
const RUN_LINE =
  /^.*(?:curl|wget|fetch|base64|eval|exec|Function|powershell|pwsh|FromBase64|irm|iwr|Invoke-).*$/gim;
/** A Markdown line a reader would run: one starting with a command word (a list marker or `$ ` before it). */
const COMMAND_LINE =
  /^\s*(?:[-*+]\s+|\d+[.)]\s+|>\s*)?(?:\$\s+)?(?:sudo\s+)?(?:curl|wget|echo|printf|cat|base64|eval|exec|python[\d.]*|node|perl|ruby|php|sh|bash|zsh|powershell|pwsh|irm|iwr|Invoke-\w+|iex)\b/i;

/** The lines of a Markdown text inside fenced code blocks (1-based). */
function fencedLines(text: string): Set<number> {
  const out = new Set<number>();
  let fence: string | undefined;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(lines[i]!);
    if (m && (!fence || m[1]!.startsWith(fence))) {
      fence = fence ? undefined : m[1]!;
      continue;
    }
    if (fence) out.add(i + 1);
  }
  return out;
}

/** Findings in what a text file adds (the whole file when it is new). */
function textFindings(file: string, head: string, added: AddedLine[] | undefined): StaticFinding[] {
  const out: StaticFinding[] = [];
  const s = scanned(head, added);
  let lastLine = 0;
  for (const m of s.text.matchAll(INVISIBLE)) {
    const line = s.lineAt(m.index);
    if (line === lastLine) continue;
    const why = invisibleReason(s.text, m.index, m[0]);
    if (!why) continue;
    lastLine = line;
    const cps = [...m[0]].map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`);
    out.push({
      class: "invisible-unicode",
      file,
      line,
      message: `${file}:${line} holds ${why} (${cps.slice(0, 4).join(" ")})`,
      blocking: true,
    });
  }
  if (RUN_WORDS.test(s.text)) {
    // In Markdown, a pattern named in prose (a security guide's list of what to refuse) asks nothing to run:
    // only code blocks and lines that start with a command count.
    const fenced = /\.(?:md|mdx|markdown)$/i.test(file) ? fencedLines(head) : undefined;
    for (const m of s.text.matchAll(RUN_LINE)) {
      const line = s.lineAt(m.index);
      if (fenced && !fenced.has(line) && !COMMAND_LINE.test(m[0])) continue;
      const decoded = DECODE_RUN.find(([re]) => re.test(m[0]));
      const hit = decoded ?? DOWNLOAD_RUN.find(([re]) => re.test(m[0]));
      if (!hit) continue;
      out.push({
        class: decoded ? "decode-run" : "download-run",
        file,
        line,
        message: `${file}:${line} runs ${hit[1]}: ${m[0].trim().slice(0, 200)}`,
        blocking: Boolean(decoded),
      });
    }
  }
  // Padding is judged on the whole file: blank lines the PR keeps may sit before a line it adds.
  const pad = paddedAt(head);
  if (pad !== undefined) {
    const line = scanned(head, undefined).lineAt(pad);
    if (!added || added.some((a) => a.line === line))
      out.push({
        class: "hidden-text",
        file,
        line,
        message: `${file}:${line} follows ${PADDING_LINES} or more blank lines, or ${PADDING_COLUMNS} or more spaces: text pushed out of a reader's sight`,
        blocking: true,
      });
  }
  return out;
}

export interface ReviewedFile {
  /** Path relative to the skill folder. */
  file: string;
  head: Buffer;
  /** The file at base, when the skill and the file exist there. */
  base?: Buffer;
}

/** Findings of one file the PR adds or changes (an unchanged file has none). */
export function reviewFile(f: ReviewedFile): StaticFinding[] {
  if (f.base?.equals(f.head)) return [];
  const kind = binaryKind(f.file, f.head);
  if (kind === MEDIA) return [];
  if (kind)
    return [
      {
        class: "binary",
        file: f.file,
        line: 1,
        message: `${f.file} is ${kind}: its content cannot be reviewed as text`,
        blocking: true,
      },
    ];
  const text = f.head.toString("utf8");
  return textFindings(f.file, text, f.base ? addedLines(f.base.toString("utf8"), text) : undefined);
}

/**
 * The hosts the PR's files name that the base's skill folder never did (and the base's policy does not allow):
 * one reported finding per file, for a reviewer to look at.
 */
export function newHostFindings(
  files: readonly ReviewedFile[],
  allowed: (host: string) => boolean,
): StaticFinding[] {
  const before = new Set<string>();
  for (const f of files) if (f.base) for (const h of hostsIn(f.base.toString("utf8"))) before.add(h);
  const out: StaticFinding[] = [];
  for (const f of files) {
    if (f.base?.equals(f.head) || binaryKind(f.file, f.head)) continue;
    const head = f.head.toString("utf8");
    const s = scanned(head, f.base ? addedLines(f.base.toString("utf8"), head) : undefined);
    const fresh = new Map<string, number>();
    for (const m of s.text.matchAll(HOST)) {
      const h = m[1]!.toLowerCase();
      if (!fresh.has(h) && !before.has(h) && !HARMLESS_HOST.test(h) && !allowed(h))
        fresh.set(h, s.lineAt(m.index));
    }
    if (fresh.size === 0) continue;
    const [first] = fresh.values();
    out.push({
      class: "new-host",
      file: f.file,
      line: first!,
      message: `${f.file} names ${fresh.size} host(s) the skill did not name before: ${[...fresh.keys()].slice(0, 10).join(", ")}${fresh.size > 10 ? ", …" : ""}`,
      blocking: false,
    });
  }
  return out;
}
