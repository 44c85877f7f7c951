/**
 * The strace reader's one-pass scanner (src/observe/strace.ts `scanList`), against the two-pass reader it replaced
 * (kept here as the reference: find the call's closing bracket, then split what is inside), on generated trace
 * lines: nested structures and arrays, quoted strings with escapes and stray brackets, `-y` descriptor
 * annotations, `<unfinished ...>` halves, and lines cut anywhere (a trace that reached its cap ends mid-line).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseTrace, type Syscall, splitTopLevel } from "../../src/observe/strace.js";

const OPENERS: Record<string, string> = { "(": ")", "[": "]", "{": "}" };
const fdChar = (c: string | undefined) => /[0-9A-Z_]/.test(c ?? "");

function refSimple(text: string, from: number): number {
  if (text[from] === "<") return text.indexOf(">", from);
  for (let i = from + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

function refClosing(text: string, from: number): number {
  const stack: string[] = [];
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || (c === "<" && fdChar(text[i - 1]))) {
      const end = refSimple(text, i);
      if (end < 0) return -1;
      i = end;
    } else if (OPENERS[c]) stack.push(OPENERS[c]!);
    else if (c === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

function refSplit(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || OPENERS[c] || (c === "<" && fdChar(text[i - 1]))) {
      const end = c === '"' || c === "<" ? refSimple(text, i) : refClosing(text, i);
      if (end < 0) break;
      i = end;
    } else if (c === "," && text[i + 1] === " ") {
      out.push(text.slice(start, i).trim());
      start = i + 2;
      i++;
    }
  }
  const last = text.slice(start).trim();
  if (last) out.push(last);
  return out;
}

function refCall(pid: number, text: string): Syscall | undefined {
  const name = /^(\w+)\(/.exec(text)?.[1];
  if (!name) return undefined;
  const close = refClosing(text, name.length);
  if (close < 0) return undefined;
  const result = /^\s*=\s*(.*)$/.exec(text.slice(close + 1))?.[1] ?? "?";
  return { pid, name, args: refSplit(text.slice(name.length + 1, close)), result };
}

/** The reference reader of a whole trace: the same line handling as `parseTrace`, calls read by `refCall`. */
function refTrace(text: string): Syscall[] {
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
      if (first) slots[first.index] = refCall(pid, first.head + rest.slice(resumed[0].length));
    } else if (rest.endsWith("<unfinished ...>")) {
      open.set(pid, {
        index: slots.length,
        head: rest.slice(0, -"<unfinished ...>".length).replace(/ $/, ""),
      });
      slots.push(undefined);
    } else slots.push(refCall(pid, rest));
  }
  for (const [pid, first] of open) slots[first.index] = refCall(pid, `${first.head}) = ?`);
  return slots.filter((c): c is Syscall => c !== undefined);
}

const word = fc.constantFrom(
  "3",
  "AT_FDCWD",
  "O_RDONLY|O_CLOEXEC",
  "0x7ffd",
  "NULL",
  "110",
  "sa_family=AF_INET",
);
const quotedText = fc
  .array(
    fc.constantFrom(
      "a",
      "b",
      ",",
      ", ",
      "(",
      ")",
      "[",
      "]",
      "{",
      "}",
      "<",
      ">",
      '\\"',
      "\\\\",
      "\\x41",
      "\\n",
    ),
    {
      maxLength: 8,
    },
  )
  .map((parts) => `"${parts.join("")}"${parts.length > 6 ? "..." : ""}`);
const annotation = fc
  .tuple(
    fc.constantFrom("3", "AT_FDCWD", "12"),
    fc.constantFrom("/tmp/a", "/we\\76ird", "socket:[1]", "pipe:[2]", "", "/a, b", "/x(y", '/q"r', "/s[t"),
  )
  .map(([fd, path]) => `${fd}<${path}>`);
const { value } = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    word,
    quotedText,
    annotation,
    fc.array(tie("value"), { maxLength: 3 }).map((xs) => `[${xs.join(", ")}]`),
    fc.array(tie("value"), { maxLength: 3 }).map((xs) => `{${xs.join(", ")}}`),
    fc.array(tie("value"), { maxLength: 2 }).map((xs) => `f(${xs.join(", ")})`),
    fc.constantFrom(")", "]", "}", "/* 9 vars */", "..."),
  ),
}));
const call = fc
  .tuple(
    fc.constantFrom("openat", "execve", "connect", "clone3", "unlinkat"),
    fc.array(value, { maxLength: 4 }),
    fc.constantFrom(
      " = 0",
      " = 3</tmp/a>",
      " = -1 ENOENT (No such file or directory)",
      "",
      " <unfinished ...>",
    ),
  )
  .map(
    ([name, args, tail]) => `${name}(${args.join(", ")}${tail === " <unfinished ...>" ? tail : `)${tail}`}`,
  );
const line = fc.oneof(
  fc.tuple(fc.constantFrom(7, 8, 9), call).map(([pid, c]) => `${pid} ${c}`),
  fc
    .tuple(
      fc.constantFrom(7, 8, 9),
      fc.constantFrom("openat", "execve"),
      fc.constantFrom(") = 0", ", 3) = 1", "x"),
    )
    .map(([pid, name, rest]) => `${pid} <... ${name} resumed>${rest}`),
  fc.constantFrom("7 +++ exited with 0 +++", "8 --- SIGCHLD {si_signo=SIGCHLD} ---", "garbage"),
);

describe("the strace reader's one-pass scanner", () => {
  it("reads every generated trace as the two-pass reader did, cut anywhere", () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.nat(), (lines, cut) => {
        const text = lines.join("\n");
        const cutText = text.slice(0, text.length === 0 ? 0 : cut % (text.length + 1));
        expect(parseTrace(text)).toEqual(refTrace(text));
        expect(parseTrace(cutText)).toEqual(refTrace(cutText));
      }),
      { numRuns: 2000, seed: 41 },
    );
  });

  it("splits argument lists as the two-pass reader did", () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 5 }), fc.nat(), (parts, cut) => {
        const text = parts.join(", ");
        const cutText = text.slice(0, cut % (text.length + 1));
        expect(splitTopLevel(text)).toEqual(refSplit(text));
        expect(splitTopLevel(cutText)).toEqual(refSplit(cutText));
      }),
      { numRuns: 2000, seed: 41 },
    );
  });
});
