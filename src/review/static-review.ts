/**
 * A static review of what a pull request adds to a skill's folder, reading every byte (no read limit a padding
 * could push a payload past): files that are not text a reviewer can read (compiled code, executables,
 * archives, documents that can carry macros), invisible Unicode (tag characters, zero-width and bidi controls;
 * not a joiner inside an emoji or between letters of a script that uses it), text pushed out of sight by
 * padding, strings decoded (or downloaded) and then run, and the hosts it names for the first time. Diff-aware:
 * only what the PR adds counts (a changed file's added lines, a new or changed binary file).
 */
import { type AddedLine, addedLines } from "../util/added-lines.js";

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

const startsWith = (b: Buffer, bytes: number[], at = 0) => bytes.every((x, i) => b[at + i] === x);

/** Kinds of file a reviewer cannot read as text, by their first bytes (and the name for compiled Python). */
function binaryKind(file: string, b: Buffer): string | undefined {
  if (/\.py[co]$/i.test(file)) return "compiled Python (.pyc)";
  if (startsWith(b, [0x7f, 0x45, 0x4c, 0x46])) return "an ELF executable or library";
  if (startsWith(b, [0x4d, 0x5a]) && b.subarray(0, 4096).includes(0)) return "a Windows executable (PE)";
  for (const m of [
    [0xfe, 0xed, 0xfa, 0xce],
    [0xfe, 0xed, 0xfa, 0xcf],
    [0xce, 0xfa, 0xed, 0xfe],
    [0xcf, 0xfa, 0xed, 0xfe],
  ])
    if (startsWith(b, m)) return "a Mach-O executable";
  if (startsWith(b, [0xca, 0xfe, 0xba, 0xbe])) return "compiled Java or a Mach-O universal binary";
  if (startsWith(b, [0x00, 0x61, 0x73, 0x6d])) return "WebAssembly";
  if (startsWith(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))
    return "a legacy Office document (OLE: can carry macros)";
  if (startsWith(b, [0x50, 0x4b, 0x03, 0x04]) || startsWith(b, [0x50, 0x4b, 0x05, 0x06])) return zipKind(b);
  const archives: [number[], string, number?][] = [
    [[0x1f, 0x8b], "a gzip archive"],
    [[0x42, 0x5a, 0x68], "a bzip2 archive"],
    [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], "an xz archive"],
    [[0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], "a 7-Zip archive"],
    [[0x52, 0x61, 0x72, 0x21], "a RAR archive"],
    [[0x28, 0xb5, 0x2f, 0xfd], "a zstd archive"],
    [[0x75, 0x73, 0x74, 0x61, 0x72], "a tar archive", 257],
  ];
  for (const [magic, kind, at] of archives) if (startsWith(b, magic, at)) return kind;
  if (startsWith(b, [0x25, 0x50, 0x44, 0x46]))
    return /\/(?:JavaScript|JS|Launch|EmbeddedFile)\b/.test(b.toString("latin1"))
      ? "a PDF with scripts, launch actions or embedded files"
      : undefined;
  if (isMedia(b) || isMetadata(file, b)) return MEDIA;
  return b.subarray(0, 8192).includes(0) ? "a binary file of unknown kind" : undefined;
}

/** A zip: an Office document is text-like unless it carries macros or embedded objects; any other zip is an archive. */
function zipKind(b: Buffer): string | undefined {
  const names = b.toString("latin1");
  if (/vbaProject\.bin|vbaData\.xml|\/embeddings\/oleObject/i.test(names))
    return "an Office document with macros";
  if (names.includes("[Content_Types].xml")) return undefined;
  return "a zip archive (or a .jar, .whl)";
}

/** A binary file that is no code (an image, a font, audio, video): nothing to review as text, nothing run. */
const MEDIA = "media";

/** Finder's folder metadata (`.DS_Store`, "Bud1"): binary, harmless, often committed by mistake. */
function isMetadata(file: string, b: Buffer): boolean {
  return /(?:^|\/)\.DS_Store$/.test(file) && b.subarray(4, 8).toString("latin1") === "Bud1";
}

/** Images, fonts, audio and video: binary, but not code. */
function isMedia(b: Buffer): boolean {
  const head = b.subarray(0, 12).toString("latin1");
  return (
    startsWith(b, [0x89, 0x50, 0x4e, 0x47]) ||
    startsWith(b, [0xff, 0xd8, 0xff]) ||
    head.startsWith("GIF8") ||
    (head.startsWith("RIFF") && /WEBP|WAVE|AVI /.test(head)) ||
    startsWith(b, [0x00, 0x00, 0x01, 0x00]) ||
    head.startsWith("BM") ||
    startsWith(b, [0x00, 0x01, 0x00, 0x00, 0x00]) ||
    head.startsWith("OTTO") ||
    head.startsWith("wOFF") ||
    head.startsWith("wOF2") ||
    head.startsWith("ID3") ||
    head.startsWith("OggS") ||
    head.startsWith("fLaC") ||
    head.slice(4, 8) === "ftyp" ||
    startsWith(b, [0x1a, 0x45, 0xdf, 0xa3])
  );
}

/** Zero-width and invisible characters, tag characters, variation-selector runs and bidi controls. */
const INVISIBLE =
  /[\u200B-\u200D\u2060-\u2064\u180E\uFEFF\u202A-\u202E\u2066-\u2069]|[\u{E0000}-\u{E007F}]|[\u{E0100}-\u{E01EF}]|[\uFE00-\uFE0F]{2,}/gu;
const PICTOGRAPH = /\p{Extended_Pictographic}|[\u{1F3FB}-\u{1F3FF}\uFE0F\u20E3]/u;
/** A letter of a script that joins its letters (not Latin): a joiner beside it shapes the text. */
const SCRIPT_LETTER = /[^\p{ASCII}\p{Script=Latin}]/u;
const RTL = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u;
const lineAround = (text: string, at: number) =>
  text.slice(text.lastIndexOf("\n", at - 1) + 1, (text.indexOf("\n", at) + 1 || text.length + 1) - 1);

/** Why an invisible character is there for nothing a reader sees, or undefined when it does a visible job. */
function invisibleReason(text: string, at: number, ch: string): string | undefined {
  const cp = ch.codePointAt(0)!;
  const prev = [...text.slice(Math.max(0, at - 2), at)].pop() ?? "";
  const next = [...text.slice(at + ch.length, at + ch.length + 2)][0] ?? "";
  // A joiner inside an emoji sequence, or a joiner or break beside a letter of a script that needs it (Persian,
  // Indic, Thai …).
  if ((cp === 0x200d || cp === 0x200c) && PICTOGRAPH.test(prev) && PICTOGRAPH.test(next)) return undefined;
  if (cp >= 0x200b && cp <= 0x200d && (SCRIPT_LETTER.test(prev) || SCRIPT_LETTER.test(next)))
    return undefined;
  // A zero-width space before a code fence: Markdown's way to show a fence inside a fence.
  if (
    cp === 0x200b &&
    /^\s*$/.test(text.slice(text.lastIndexOf("\n", at - 1) + 1, at)) &&
    /^(?:`{3}|~{3})/.test(text.slice(at + 1, at + 4))
  )
    return undefined;
  // Embedding controls in right-to-left text (Persian, Arabic, Hebrew) order that text; in other text they hide.
  if (((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) && RTL.test(lineAround(text, at)))
    return undefined;
  // A byte-order mark at the very start of a file.
  if (cp === 0xfeff && at === 0) return undefined;
  if (cp >= 0xe0000 && cp <= 0xe007f) return "Unicode tag characters (invisible text)";
  if (cp >= 0xe0100 || (cp >= 0xfe00 && cp <= 0xfe0f)) return "a run of variation selectors (hidden data)";
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
    return "a bidirectional control (text shown in another order than it is read)";
  return "a zero-width character";
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
