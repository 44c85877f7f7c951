/**
 * Issues #21 and #33: every command the README and the docs/ pages print works as printed. Commands are read from
 * the pages themselves (`sh` code blocks, lines starting `$ ` in any code block, and inline code that starts with
 * `npm ` or `node `, split at `&&`) and run with `sh -c` in a copy of the repository (so `out.json` and a fresh
 * `dist/` land in the copy); each must end as the table below says. An `sh` block holding one command, followed by
 * a plain code block, shows that command's output: each of its lines must be printed (`…` stands for any text).
 * A command a page gains without an entry here fails the test. The pages' other promises are checked too: tables
 * keep their columns, relative links lead to files, the README fits on two screens, docs/README.md lists every
 * page, the workflow shown is the example file, and the Action's inputs table is action.yml's.
 */
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { readConfig } from "../src/settings/policy.js";

const ROOT = join(import.meta.dirname, "..");
const DOCS = readdirSync(join(ROOT, "docs"))
  .filter((f) => f.endsWith(".md"))
  .map((f) => `docs/${f}`);
const PAGES: Record<string, string> = Object.fromEntries(
  ["README.md", ...DOCS].map((p) => [p, readFileSync(join(ROOT, p), "utf8")]),
);
const README = PAGES["README.md"]!;

/** What each command must do when run as printed; `printed`: lines its stdout holds (`…` stands for any text). */
interface Expected {
  exit: number;
  stdout?: RegExp;
  writes?: string;
  printed?: string[];
  timeoutMs?: number;
}

const EXPECTED: Record<string, Expected> = {
  "npm run demo": { exit: 1, stdout: /skillgate: FAIL {2}1 skill\(s\), 11 blocking root\(s\) \(11 new\)/ },
  "npm run demo -- --json out.json": { exit: 1, writes: "out.json" },
  "npm run demo -- --html out.html": { exit: 1, writes: "out.html" },
  "npm run demo:pass": { exit: 0, stdout: /skillgate: PASS/ },
  // The real Claude Code CLI against a scripted model on loopback: about 50 whole CLI processes.
  "npm run demo:claude": {
    exit: 1,
    stdout:
      /skillgate: FAIL .*\[agent claude-code, 1 trial\(s\) per case[\s\S]*FAIL {2}split-cents[\s\S]*threshold\/triggerRecall/,
    timeoutMs: 1_200_000,
  },
  "node dist/cli.js run --repo examples/demo-repo-base": {
    exit: 1,
    stdout: /FAIL {2}split-cents \(sweep[\s\S]*split-refund\/last-line-is-cents/,
  },
  "node dist/cli.js validate --repo examples/demo-repo": { exit: 0, stdout: /0 error\(s\), 0 warning\(s\)/ },
  "node dist/cli.js harvest --repo examples/demo-repo-base --skills split-cents --trials 3": {
    exit: 0,
    stdout:
      /PROPOSE not-one-of D:not-for-1000-cents-and-3-people-each[\s\S]*PROPOSE mark-discriminator split-conserves[\s\S]*already caught by D:sums-to-total/,
  },
  "node dist/cli.js gate conservation gates/conservation/fixtures/bad-round-each.ts --export allocate": {
    exit: 1,
    stdout: /✗ sum: the shares add up to the total exactly[\s\S]*replay: skillgate gate conservation/,
  },
  "node dist/cli.js plan --repo examples/demo-repo --base-dir examples/demo-repo-base --config ../demo-live.yml --no-cache":
    { exit: 0, stdout: /forecast .*267 agent call\(s\)/ },
  "node dist/cli.js": { exit: 2, stdout: /Usage: skillgate <command> \[options\]/ },
  "npm run skillgate --": { exit: 2, stdout: /Usage: skillgate <command> \[options\]/ },
  "echo 'Split 1000 cents among 3 people' | node examples/agents/agent.mjs": {
    exit: 0,
    stdout: /^\{"output":"No skill applies; answering on my own\.","skillsActivated":\[\],"toolCalls":\[\]/,
  },
  // Seeded: docs/verdict.md's in-process figures are what this prints, to the digit.
  "npm run bench -- --only verdict --verdict-prs 1500": {
    exit: 0,
    stdout:
      /seed 20261201[\s\S]*cold\): A\/A false-regression 0\.1 % ± 0\.4 [\s\S]*289\.2 calls paid, 1\.96 confirmation rounds[\s\S]*cold\): power 0\.9 → 0\.5 90\.9 % ± 1\.6 [\s\S]*inconclusive 0\.5 %[\s\S]*should-fire 1\.0 → 0\.3 97\.5 % ± 0\.9 [\s\S]*calls paid 359\.6 \/ 321\.7; confirmation rounds 2\.53 \/ 2\.11[\s\S]*warm[^\n]*A\/A false-regression 0\.3 % ± 0\.4 [\s\S]*147\.4 calls paid, 1\.93[\s\S]*power 0\.9 → 0\.5 92\.3 % ± 1\.5 [\s\S]*should-fire 1\.0 → 0\.3 97\.0 % ± 1\.0 [\s\S]*calls paid 205\.8 \/ 181\.6; confirmation rounds 2\.57 \/ 2\.1 [\s\S]*starting at 3 trials 76\.9 %[\s\S]*0\.9 → 0\.6 \(below the futility effect\): power 71\.0 %/,
    timeoutMs: 600_000,
  },
  "npm run bundle": { exit: 0, writes: "dist/post.js" },
  "npm run lint:workflows": { exit: 0, stdout: /0 finding\(s\)/ },
  "npm run lint:layers": { exit: 0, stdout: /no dependency violations found/ },
  "npm run lint:size": { exit: 0, stdout: /0 new, 0 grown, 0 stale/ },
};

/** Commands the pages print that this test does not run, and why. */
const NOT_RUN_HERE: Record<string, string> = {
  "npm ci": "installs node_modules: the first step of CI on a fresh clone (.ci/run), before this test runs",
  "npm test": "runs this test among all the others",
  "node scripts/report-schema.mjs":
    "derives src/report/report.schema.json from the Report type; test/report/report-schema.test.ts checks the committed file is what it gives",
  "node scripts/shape-schemas.mjs":
    "derives src/detect/shapes.schema.json from the types of the files skillgate reads; test/detect/shape-schemas.test.ts checks the committed file is what it gives",
  "npm install -g @anthropic-ai/claude-code@2.1.332":
    "installs Claude Code for the claude-code agent; test/examples/workflows-run.test.ts checks it is the version the tests run",
  "npm run demo:claude -- --json out.json":
    "`npm run demo:claude` with its report written: the same run as above, about 50 Claude Code processes again",
  "npm run bench": "the whole benchmark, see `npm run bench -- --json bench.json`",
  "npm run bench -- --only observation":
    "about 280 `skillgate run` trials observed and not, Claude Code's among them: 3 minutes on a busy 2-core machine; its figures are in docs/security.md",
  "npm run bench -- --only review-report":
    "renders a 10,000-trial report and opens it several times in headless Chromium: minutes on a busy 2-core machine",
  "npm run bench -- --only cost --json F":
    "the bench's cost section took 1,058 s on a busy 2-core machine; its figures are in docs/performance.md",
  "npm run bench -- --only verdict-e2e --verdict-e2e-prs 15":
    "45 whole CLI runs took 850 s on the 2 busy cores, and its agent draws from /dev/urandom: figures differ run to run",
  "npm run bench -- --json bench.json":
    "the whole benchmark (485 s at load 4–8, 535 s beside two spinning processes, within its 540 s allotment)",
  "node --expose-gc scripts/bench.mjs --json F": "what `npm run bench` runs: the whole benchmark, see above",
  "npm run bench -- --only verdict-e2e --verdict-e2e-only aa --verdict-e2e-prs 300 --verdict-e2e-log --seconds 0":
    "300 whole CLI runs took 54 minutes; its agent draws from /dev/urandom, so figures differ run to run",
  "npm run bench -- --only latency":
    "whole CLI pull requests against an agent that sleeps L = 2 s per trial, cold and warm: about an hour",
  "npm run bench -- --only reworded --corpus DIR --skills 5916 --batch 25 --seconds 4300 --keep-tmp":
    "854 real skills run in both arms through `skillgate run`, 73 minutes on 2 busy cores, from a corpus outside the repository; its figures are in docs/security.md",
  "npm run bench -- --only gates --complexity-runs 1": "the gates section once (about a minute)",
  "npm run bench -- --only cost,orchestration --with-promptfoo":
    "installs promptfoo from the npm registry and runs both sections (about 4 minutes)",
  "npm run bench -- --only trigger-stop --json F":
    "the bench's trigger-stop section (about 3 minutes on 2 busy cores, the real Claude Code and Codex CLIs)",
  "npm run bench -- --only isolation":
    "the bench's isolation section alone (about 5 minutes on 2 cores, real agent CLIs included)",
  "npm run bench -- --only scale --scale-sizes 10000 --seconds 0":
    "the bench's scale section at 10,000 skills: a whole PR run and a 900-skill sweep, 321 s on 2 busy cores",
  "npm run bench -- --only scale --scale-sizes none --scale-sweep-skills none --scale-validate-sizes 10000,30000,60000 --seconds 0":
    "`validate` on generated catalogues of up to 60,000 skills (400 MB of files in /dev/shm): minutes on 2 busy cores",
};

/** Commands a page prints, as printed (comments dropped, `a && b` is two). */
function pageCommands(markdown: string): string[] {
  const out: string[] = [];
  for (const block of markdown.matchAll(/```sh\n([\s\S]*?)```/g))
    for (const line of block[1]!.split("\n")) out.push(line.replace(/\s+#.*$/, ""));
  for (const block of markdown.matchAll(/```[^\n]*\n([\s\S]*?)```/g))
    for (const line of block[1]!.split("\n")) if (line.startsWith("$ ")) out.push(line.slice(2));
  const prose = markdown.replace(/```[\s\S]*?```/g, "");
  for (const m of prose.matchAll(/`((?:npm|node) [^`\n]+)`/g)) out.push(m[1]!);
  return out
    .flatMap((c) => c.split("&&"))
    .map((c) => c.trim())
    .filter(Boolean);
}

const COMMANDS = new Map<string, string[]>();
for (const [page, text] of Object.entries(PAGES))
  for (const c of pageCommands(text)) COMMANDS.set(c, [...(COMMANDS.get(c) ?? []), page]);

/** Output blocks: a plain block right after an `sh` block of one command, and the demo's (`skillgate: FAIL …`). */
function shownOutputs(): Map<string, string[]> {
  const shown = new Map<string, string[]>();
  const add = (command: string, lines: string[]) =>
    shown.set(command, [...(shown.get(command) ?? []), ...lines]);
  for (const text of Object.values(PAGES)) {
    for (const m of text.matchAll(/```sh\n([^\n]+)\n```\n\n```\n([\s\S]*?)```/g))
      if (!m[1]!.includes("&&")) add(m[1]!.replace(/\s+#.*$/, "").trim(), m[2]!.trimEnd().split("\n"));
    for (const m of text.matchAll(/```\n(skillgate: FAIL {2}1 skill[\s\S]*?)```/g))
      add("npm run demo", m[1]!.trimEnd().split("\n"));
  }
  return shown;
}
const SHOWN = shownOutputs();

/** Whether `line` is printed, `…` standing for any text. */
function printed(stdoutLines: string[], line: string): boolean {
  const parts = line.split("…");
  if (parts.length === 1) return stdoutLines.includes(line);
  return stdoutLines.some((l) => {
    if (!l.startsWith(parts[0]!) || !l.endsWith(parts.at(-1)!)) return false;
    let at = parts[0]!.length;
    for (const p of parts.slice(1, -1)) {
      const i = l.indexOf(p, at);
      if (i < 0) return false;
      at = i + p.length;
    }
    return at <= l.length - parts.at(-1)!.length;
  });
}

describe("the commands the README and docs/ print", () => {
  let copy: string;
  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), "sg-readme-"));
    for (const f of [
      "package.json",
      ".dependency-cruiser.cjs",
      "action.yml",
      "bench",
      "test", // the bench's fuzz section imports its harness from test/; demo:claude its scripted model
      "tsconfig.json",
      "dist",
      "examples",
      "gates",
      "scripts",
      "src",
    ])
      cpSync(join(ROOT, f), join(copy, f), { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it("show the demo's output, which `npm run demo` is checked against line by line", () => {
    expect(SHOWN.get("npm run demo")?.[0]).toMatch(/^skillgate: FAIL/);
    expect(SHOWN.get("npm run demo")!.length).toBeGreaterThan(10);
  });

  it("are all known here: each is run below, or said why not", () => {
    const unknown = [...COMMANDS].filter(([c]) => !(c in EXPECTED) && !(c in NOT_RUN_HERE));
    expect(unknown.map(([c, pages]) => `${c}   (in ${pages.join(", ")})`)).toEqual([]);
    const gone = [...Object.keys(EXPECTED), ...Object.keys(NOT_RUN_HERE)].filter((c) => !COMMANDS.has(c));
    expect(gone, "entries no page prints any more").toEqual([]);
  });

  for (const [command, expected] of Object.entries(EXPECTED))
    it(
      `\`${command}\` works as printed`,
      async () => {
        const timeout = expected.timeoutMs ?? 240_000;
        const r = await execa("sh", ["-c", command], {
          cwd: copy,
          reject: false,
          env: { XDG_CACHE_HOME: join(copy, ".test-cache"), NO_COLOR: "1" },
          timeout,
        });
        if (r.exitCode !== expected.exit) console.log(r.stdout, r.stderr);
        expect(r.exitCode).toBe(expected.exit);
        if (expected.stdout) expect(String(r.stdout)).toMatch(expected.stdout);
        if (expected.writes) expect(existsSync(join(copy, expected.writes))).toBe(true);
        const stdoutLines = String(r.stdout).split("\n");
        for (const line of SHOWN.get(command) ?? [])
          expect(printed(stdoutLines, line), `printed as the page shows it: ${line}`).toBe(true);
        expect(String(r.stderr)).not.toMatch(/Cannot find|ERR_|Error: /);
      },
      (expected.timeoutMs ?? 240_000) + 10_000,
    );
});

describe("the pages", () => {
  it("the README fits on two screens", () => {
    expect(README.split("\n").length).toBeLessThanOrEqual(120);
  });

  it("keep every table row as wide as its header", () => {
    const bad: string[] = [];
    for (const [page, text] of Object.entries(PAGES)) {
      const lines = text.replace(/```[\s\S]*?```/g, (b) => b.replace(/[^\n]/g, "")).split("\n");
      let width = 0;
      for (const [i, line] of lines.entries()) {
        if (!line.startsWith("|")) {
          width = 0;
          continue;
        }
        const cells =
          line
            .replace(/\\\|/g, "")
            .replace(/`[^`]*`/g, "x")
            .split("|").length - 2;
        if (width === 0) width = cells;
        else if (cells !== width) bad.push(`${page}:${i + 1}: ${cells} cells, the header has ${width}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("link only to files that exist", () => {
    const broken: string[] = [];
    for (const [page, text] of Object.entries(PAGES))
      for (const m of text.replace(/```[\s\S]*?```/g, "").matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!.split("#")[0]!;
        if (!target || /^[a-z]+:/i.test(target)) continue;
        if (!existsSync(resolve(ROOT, dirname(page), target))) broken.push(`${page}: ${m[1]}`);
      }
    expect(broken).toEqual([]);
  });

  it("docs/README.md lists every page of docs/", () => {
    const index = PAGES["docs/README.md"]!;
    const missing = DOCS.filter((p) => p !== "docs/README.md" && !index.includes(`(${p.slice(5)})`));
    expect(missing).toEqual([]);
  });

  it("the README's workflow is examples/workflows/skillgate-claude-code.yml without its comments", () => {
    const section = README.slice(README.indexOf("## Use it in a workflow"));
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
    const example = readFileSync(join(ROOT, "examples/workflows/skillgate-claude-code.yml"), "utf8");
    expect(parseYaml(yaml!)).toEqual(parseYaml(example));
  });

  it("docs/workflows.md shows that workflow as it is, comments included", () => {
    const yaml = /```yaml\n([\s\S]*?)```/.exec(PAGES["docs/workflows.md"]!)?.[1];
    expect(yaml).toBe(readFileSync(join(ROOT, "examples/workflows/skillgate-claude-code.yml"), "utf8"));
  });

  it("docs/workflows.md's inputs table lists every input of action.yml", () => {
    const action = parseYaml(readFileSync(join(ROOT, "action.yml"), "utf8")) as { inputs: object };
    const text = PAGES["docs/workflows.md"]!;
    const table = text.slice(text.indexOf("## Inputs"));
    const listed = [...table.matchAll(/^\| `([a-z-]+)`(?:, `([a-z-]+)`)? \|/gm)].flatMap((m) =>
      [m[1], m[2]].filter((x): x is string => !!x),
    );
    expect(listed.sort()).toEqual(Object.keys(action.inputs).sort());
  });

  it("show only valid configuration: the README's and docs/configuration.md's `.skillgate.yml` examples", () => {
    const examples = [
      /## Configure[\s\S]*?```yaml\n([\s\S]*?)```/.exec(README)?.[1],
      /```yaml\n([\s\S]*?)```/.exec(PAGES["docs/configuration.md"]!)?.[1],
    ];
    for (const text of examples) {
      expect(text).toBeDefined();
      const dir = mkdtempSync(join(tmpdir(), "sg-config-example-"));
      writeFileSync(join(dir, ".skillgate.yml"), text!);
      const loaded = readConfig({ kind: "dir", dir });
      rmSync(dir, { recursive: true, force: true });
      expect(loaded.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([]);
      expect(loaded.config.agent?.adapter).toBeDefined();
    }
  });

  it("name the Claude Code version the tests run", () => {
    const pinned = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).devDependencies[
      "@anthropic-ai/claude-code"
    ];
    for (const text of Object.values(PAGES))
      for (const m of text.matchAll(/@anthropic-ai\/claude-code@([\w.-]+)/g)) expect(m[1]).toBe(pinned);
  });
});
