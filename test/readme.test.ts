/**
 * Issue #21: every command the README prints works as printed. The commands are read from the README itself
 * (`sh` code blocks, and inline code that starts with `npm ` or `node `, split at `&&`) and run with `sh -c` in a
 * copy of the repository (so `out.json` and a fresh `dist/` land in the copy); each must end as the README says.
 * A command the README gains without an entry here fails the test. The README's workflow is the example file
 * that test/examples/workflows-run.test.ts runs.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");

/** The demo's output as the README shows it (the code block that starts with its summary line), line by line. */
const DEMO_LINES = (/```\n(skillgate: FAIL[\s\S]*?)```/.exec(README)?.[1] ?? "").trimEnd().split("\n");

/** What each command must do when run as printed; `printed`: lines its stdout holds (`…/` stands for a path). */
const EXPECTED: Record<string, { exit: number; stdout?: RegExp; writes?: string; printed?: string[] }> = {
  "npm run demo": {
    exit: 1,
    stdout: /skillgate: FAIL {2}1 skill\(s\), 13 blocking root\(s\) \(10 new\)/,
    printed: DEMO_LINES,
  },
  "npm run demo -- --json out.json": { exit: 1, writes: "out.json" },
  "npm run demo:pass": { exit: 0, stdout: /skillgate: PASS/ },
  "node dist/cli.js run --repo examples/demo-repo-base": {
    exit: 1,
    stdout: /FAIL {2}split-cents \(sweep[\s\S]*split-refund\/last-line-is-cents/,
  },
  "node dist/cli.js validate --repo examples/demo-repo": { exit: 0, stdout: /0 error\(s\), 0 warning\(s\)/ },
  "node dist/cli.js gate conservation gates/conservation/fixtures/bad-round-each.ts --export allocate": {
    exit: 1,
    stdout: /✗ sum: the shares add up to the total exactly[\s\S]*replay: skillgate gate conservation/,
  },
  // Seeded: the README's in-process verdict figures are what this prints, to the digit.
  "npm run bench -- --only verdict --verdict-prs 3000": {
    exit: 0,
    stdout:
      /seed 20261201[\s\S]*A\/A false-regression 0\.2 % ± 0\.2 [\s\S]*power 0\.9 → 0\.5 at 5 trials 91\.4 % ± 1\.1 \(goal ≥ 90 %\), at 3 80\.7 % ± 1\.5; inconclusive 0\.0 %[\s\S]*trials per case head 7\.95 \(goal ≤ 8\) \/ base 16\.8;[\s\S]*should-fire 1\.0 → 0\.3 97\.9 % ± 0\.6 [\s\S]*agent calls per PR A\/A 275\.5, assertion 345\.2, trigger 305\.8[\s\S]*0\.9 → 0\.6 \(below the futility effect\): power 74\.3 %/,
  },
  "npm run bundle": { exit: 0, writes: "dist/post.js" },
  "npm run lint:workflows": { exit: 0, stdout: /0 finding\(s\)/ },
};

/** Commands the README prints that this test does not run, and why. */
const NOT_RUN_HERE: Record<string, string> = {
  "npm ci": "installs node_modules: the first step of CI on a fresh clone (.ci/run), before this test runs",
  "npm test": "runs this test among all the others",
  "npm install -g @anthropic-ai/claude-code@2.1.332":
    "installs Claude Code for the claude-code agent; test/examples/workflows-run.test.ts checks it is the version the tests run",
  "npm run bench -- --only cost --json F":
    "the bench's cost section took 1,058 s on a busy 2-core machine; its figures are in the README",
  "npm run bench -- --only verdict-e2e --verdict-e2e-prs 15":
    "45 whole CLI runs took 850 s on the 2 busy cores, and its agent draws from /dev/urandom: figures differ run to run",
  "npm run bench -- --json bench.json":
    "the whole benchmark (485 s at load 4–8, 535 s beside two spinning processes, within its 540 s allotment); its figures are in the README",
  "node --expose-gc scripts/bench.mjs --json F": "what `npm run bench` runs: the whole benchmark, see above",
  "npm run bench -- --only verdict-e2e --verdict-e2e-only aa --verdict-e2e-prs 300 --verdict-e2e-log --seconds 0":
    "300 whole CLI runs took 54 minutes; its agent draws from /dev/urandom, so figures differ run to run",
  "npm run bench -- --only gates --complexity-runs 1":
    "the gates section once (about a minute); its figures are in the README",
  "npm run bench -- --only cost,orchestration --with-promptfoo":
    "installs promptfoo from the npm registry and runs both sections (about 4 minutes); its figures are in the README",
  "npm run bench -- --only trigger-stop --json F":
    "the bench's trigger-stop section (about 3 minutes on 2 busy cores, the real Claude Code and Codex CLIs); its figures are in the README",
  "npm run bench -- --only isolation":
    "the bench's isolation section alone (about 5 minutes on 2 cores, real agent CLIs included); its figures are in the README",
};

/** Commands in `sh` blocks and in inline code, as printed (comments dropped, `a && b` is two). */
function readmeCommands(markdown: string): string[] {
  const out: string[] = [];
  for (const block of markdown.matchAll(/```sh\n([\s\S]*?)```/g))
    for (const line of block[1]!.split("\n")) out.push(line.replace(/\s+#.*$/, ""));
  const prose = markdown.replace(/```[\s\S]*?```/g, "");
  for (const m of prose.matchAll(/`((?:npm|node) [^`\n]+)`/g)) out.push(m[1]!);
  return [
    ...new Set(
      out
        .flatMap((c) => c.split("&&"))
        .map((c) => c.trim())
        .filter(Boolean),
    ),
  ];
}

describe("the README's commands", () => {
  let copy: string;
  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), "sg-readme-"));
    for (const f of [
      "package.json",
      "action.yml",
      "bench",
      "test", // the bench's fuzz section imports its harness from test/
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

  it("include the demo's output block, which `npm run demo` is checked against line by line", () => {
    expect(DEMO_LINES[0]).toMatch(/^skillgate: FAIL/);
    expect(DEMO_LINES.length).toBeGreaterThan(10);
  });

  it("are all known here: each is run below, or said why not", () => {
    expect(readmeCommands(README).sort()).toEqual(
      [...Object.keys(EXPECTED), ...Object.keys(NOT_RUN_HERE)].sort(),
    );
  });

  for (const [command, expected] of Object.entries(EXPECTED))
    it(`\`${command}\` works as printed`, async () => {
      const r = await execa("sh", ["-c", command], {
        cwd: copy,
        reject: false,
        env: { XDG_CACHE_HOME: join(copy, ".test-cache"), NO_COLOR: "1" },
        timeout: 240_000,
      });
      if (r.exitCode !== expected.exit) console.log(r.stdout, r.stderr);
      expect(r.exitCode).toBe(expected.exit);
      if (expected.stdout) expect(String(r.stdout)).toMatch(expected.stdout);
      if (expected.writes) expect(existsSync(join(copy, expected.writes))).toBe(true);
      const stdoutLines = String(r.stdout).split("\n");
      for (const line of expected.printed ?? []) {
        const [before, after] = line.split("…/");
        const shown = stdoutLines.some((l) =>
          after === undefined ? l === line : l.startsWith(before!) && l.endsWith(`/${after}`),
        );
        expect(shown, `printed as the README shows it: ${line}`).toBe(true);
      }
      expect(String(r.stderr)).not.toMatch(/Cannot find|ERR_|Error: /);
    }, 240_000);
});

describe("the README's workflow", () => {
  it("is examples/workflows/skillgate-claude-code.yml, which the examples test runs as the runner does", () => {
    const section = README.slice(README.indexOf("## Use it in a workflow"));
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
    expect(yaml).toBe(readFileSync(join(ROOT, "examples/workflows/skillgate-claude-code.yml"), "utf8"));
  });

  it("names the Claude Code version the tests run", () => {
    const pinned = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).devDependencies[
      "@anthropic-ai/claude-code"
    ];
    for (const m of README.matchAll(/@anthropic-ai\/claude-code@([\w.-]+)/g)) expect(m[1]).toBe(pinned);
  });
});
