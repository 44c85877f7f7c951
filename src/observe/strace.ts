/**
 * Reads strace's text output (`strace -f -x -y -s N`): one system call per line, `PID  name(args) = result`,
 * calls another thread interrupted split over an `<unfinished ...>` line and a `<... name resumed>` line.
 * Strings are C-quoted (`-x`: every non-printable byte `\xNN`; a newline in a path is `\n`), so a line is always
 * one call: a traced program cannot forge a line. With `-y` a descriptor carries its path (`3</tmp/a>`,
 * `AT_FDCWD</work>`), `>` in the path escaped as `\76`.
 */

export interface Syscall {
  pid: number;
  name: string;
  /** Top-level arguments, as printed. */
  args: string[];
  /** The result as printed: `0`, `3</path>`, `-1 ENOENT (No such file or directory)`, `?`. */
  result: string;
}

/** The call succeeded (a non-negative result). */
export function succeeded(call: Syscall): boolean {
  return /^\d/.test(call.result);
}

/** The errno name of a failed call (`ENOENT`), or undefined. */
export function errnoOf(call: Syscall): string | undefined {
  return /^-1 (E[A-Z0-9]+)/.exec(call.result)?.[1];
}

const QUOTE = 34;
const BACKSLASH = 92;
const LT = 60;
const COMMA = 44;
const SPACE = 32;
const CLOSE_PAREN = 41;
/** The closing character of each opening bracket, by character code: `(` `)`, `[` `]`, `{` `}`. */
const CLOSER: Record<number, number> = { 40: 41, 91: 93, 123: 125 };

/** A descriptor's annotation starts at a `<` after one of `[0-9A-Z_]` (`3</path>`, `AT_FDCWD</path>`). */
function opensAnnotation(text: string, i: number): boolean {
  if (text.charCodeAt(i) !== LT) return false;
  const p = text.charCodeAt(i - 1);
  return (p >= 48 && p <= 57) || (p >= 65 && p <= 90) || p === 95;
}

/** The end of a quoted string or a descriptor annotation that starts at `from`; -1 when the text ends first. */
function closingSimple(text: string, from: number): number {
  if (text.charCodeAt(from) === LT) return text.indexOf(">", from);
  for (let i = from + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
  }
  return -1;
}

/**
 * One pass over `text` from `from`, by character code (a trace is read for every trial): the top-level
 * comma-separated parts, and where the call's `(` open at `from` closes (`inCall`), or -1 when the text ends first
 * (a plain list is read to its end). Quoted strings and `<…>` descriptor annotations are skipped whole; a closing
 * character that does not match the innermost open bracket is text.
 */
function scanList(text: string, from: number, inCall: boolean): { parts: string[]; close: number } {
  const parts: string[] = [];
  const open: number[] = [];
  let start = from;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE || opensAnnotation(text, i)) {
      const end = closingSimple(text, i);
      if (end < 0) break;
      i = end;
    } else if (CLOSER[c] !== undefined) open.push(CLOSER[c]!);
    else if (open.length > 0) {
      if (c === open[open.length - 1]) open.pop();
    } else if (inCall && c === CLOSE_PAREN) {
      const last = text.slice(start, i).trim();
      if (last) parts.push(last);
      return { parts, close: i };
    } else if (c === COMMA && text.charCodeAt(i + 1) === SPACE) {
      parts.push(text.slice(start, i).trim());
      start = i + 2;
      i++;
    }
  }
  const last = text.slice(start).trim();
  if (last) parts.push(last);
  return { parts, close: -1 };
}

/** The top-level comma-separated parts of an argument list. */
export function splitTopLevel(text: string): string[] {
  return scanList(text, 0, false).parts;
}

/** Decodes the C escapes strace prints (`\n`, `\t`, `\"`, `\\`, `\xNN`, octal `\NNN`) into bytes. */
export function unescapeBytes(body: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c !== 92) {
      // Printable ASCII as printed (strace prints other bytes escaped).
      bytes.push(c & 0xff);
      continue;
    }
    const n = body[++i];
    if (n === "x") {
      bytes.push(Number.parseInt(body.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (n !== undefined && n >= "0" && n <= "7") {
      const oct = /^[0-7]{1,3}/.exec(body.slice(i))![0];
      bytes.push(Number.parseInt(oct, 8));
      i += oct.length - 1;
    } else {
      const simple: Record<string, number> = { n: 10, t: 9, r: 13, v: 11, f: 12, a: 7, b: 8, e: 27 };
      bytes.push(n === undefined ? 92 : (simple[n] ?? n.charCodeAt(0)));
    }
  }
  return Buffer.from(bytes);
}

/** A quoted string argument (`"…"`, perhaps followed by `...` when cut at `-s`), decoded; undefined otherwise. */
export function quoted(arg: string | undefined): string | undefined {
  const bytes = quotedBytes(arg);
  return bytes?.toString("utf8");
}

export function quotedBytes(arg: string | undefined): Buffer | undefined {
  if (!arg?.startsWith('"')) return undefined;
  const end = closingSimple(arg, 0);
  if (end < 0) return undefined;
  return unescapeBytes(arg.slice(1, end));
}

/** The path of a descriptor argument or result printed with `-y` (`AT_FDCWD</work>`, `3</tmp/a>`). */
export function fdPath(arg: string | undefined): string | undefined {
  if (!arg) return undefined;
  const m = /^(?:-?\d+|AT_FDCWD)<(.*)>/.exec(arg);
  if (!m || m[1]!.startsWith("socket:") || m[1]!.startsWith("pipe:") || m[1]!.startsWith("anon_inode:"))
    return undefined;
  return unescapeBytes(m[1]!).toString("utf8");
}

/** A string array argument (`["ls", "-l"]`, perhaps ending in `...`), decoded. */
export function stringArray(arg: string | undefined): string[] {
  if (!arg?.startsWith("[")) return [];
  return splitTopLevel(arg.slice(1, -1))
    .map((a) => quoted(a))
    .filter((a): a is string => a !== undefined);
}

/** A call from its text after the pid: `name(args) = result`. */
function callOf(pid: number, text: string): Syscall | undefined {
  const name = /^(\w+)\(/.exec(text)?.[1];
  if (!name) return undefined;
  const { parts, close } = scanList(text, name.length + 1, true);
  if (close < 0) return undefined;
  const result = /^\s*=\s*(.*)$/.exec(text.slice(close + 1))?.[1] ?? "?";
  return { pid, name, args: parts, result };
}

/**
 * Every call of a trace, in the order the calls were entered: a call another process interrupted (`<unfinished
 * ...>`, then `<... name resumed>`) takes the place of its first half, so a clone always comes before the first
 * call of the child it made. A call never resumed (its process was killed) ends with the result `?`.
 */
export function parseTrace(text: string): Syscall[] {
  const open = new Map<number, { index: number; head: string }>();
  const slots: (Syscall | undefined)[] = [];
  for (const line of text.split("\n")) {
    const m = /^(\d+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const pid = Number(m[1]);
    const rest = m[2]!;
    if (rest.startsWith("---") || rest.startsWith("+++")) continue;
    const resumed = /^<\.\.\. \w+ resumed>\s?/.exec(rest);
    if (resumed) {
      const first = open.get(pid);
      open.delete(pid);
      if (first) slots[first.index] = callOf(pid, first.head + rest.slice(resumed[0].length));
    } else if (rest.endsWith("<unfinished ...>")) {
      open.set(pid, {
        index: slots.length,
        head: rest.slice(0, -"<unfinished ...>".length).replace(/ $/, ""),
      });
      slots.push(undefined);
    } else slots.push(callOf(pid, rest));
  }
  for (const [pid, first] of open) slots[first.index] = callOf(pid, `${first.head}) = ?`);
  return slots.filter((c): c is Syscall => c !== undefined);
}
