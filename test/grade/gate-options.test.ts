/**
 * A `gate` assertion's `options` are checked against its gate's JSON Schema (gates/options.ts) through the static
 * check seam (`registerAssertionCheck`): `skillgate validate` reports each problem at its option's file:line, `run`
 * refuses the suite before any trial, and options that only go wrong once their placeholders resolve are an error
 * when graded (errors never pass), never a run of the gate.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { gradeTrial } from "../../src/grade/grade-trial.js";
import type { GateResult, GradeServices } from "../../src/grade/ports.js";
import type { Report } from "../../src/model/index.js";
import { writeRepo } from "../support/repo-files.js";
import { runCli } from "../support/run-cli.js";
import { asrt, mkCase, mkSuite, mkTrial } from "./helpers.js";

const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

const CASE_FILE = ".agent/evals/split-cents/prompts/split.yaml";
const SKILL =
  "---\nname: split-cents\ndescription: Split cents among people. Use when splitting bills.\n---\nSteps.\n";

/** A repo whose one case holds `assertions` (YAML lines) and whose agent records each call it gets. */
function repo(assertions: string[]): { dir: string; calls: string } {
  const calls = join(writeRepo({}, "sg-gate-opts-agent-"), "calls");
  writeFileSync(calls, "");
  const agent = join(calls, "..", "agent.mjs");
  writeFileSync(
    agent,
    `import { appendFileSync } from "node:fs";\nappendFileSync(${JSON.stringify(calls)}, "call\\n");\nprocess.stdout.write(JSON.stringify({ output: "334 333 333", skillsActivated: ["split-cents"] }));\n`,
  );
  const dir = writeRepo(
    {
      ".claude/skills/split-cents/SKILL.md": SKILL,
      ".skillgate.yml": `agent:\n  adapter: command\n  command: ${JSON.stringify(`${process.execPath} ${agent}`)}\ntrials: 1\ncache:\n  enabled: false\n`,
      ".agent/evals/split-cents/meta.json": JSON.stringify({ trials: 1, thresholds: {} }),
      [CASE_FILE]: [
        "id: split",
        "prompt: Split 1000 cents among 3 people.",
        "assertions:",
        ...assertions,
        "",
      ].join("\n"),
    },
    "sg-gate-opts-",
  );
  scratch.push(dir, join(calls, ".."));
  return { dir, calls };
}

const ASSERTIONS = [
  "  - {id: mentions, type: contains, value: '1000'}",
  "  - id: typo",
  "    type: gate",
  "    gate: conservation",
  "    module: src/split.ts",
  "    options:",
  "      mode: count",
  "      mdoe: weights",
  "  - id: range",
  "    type: not-gate",
  "    gate: boundary",
  "    module: src/score.ts",
  "    options: {domain: [{min: 0, max: 100}], invalid: sometimes}",
  "  - {id: bounds, type: gate, gate: boundary, module: src/score.ts, options: {domain: [{min: 10, max: 0}]}}",
  "  - {id: later, type: gate, gate: leakage, module: src/split.ts, options: {mode: $splitMode}}",
  "  - {id: fine, type: gate, gate: leakage, module: src/split.ts, options: {mode: temporal, runs: 50}}",
];

describe("gate options in suites", () => {
  it("skillgate validate reports every invalid option at its file:line; placeholders wait for grading", async () => {
    const { dir } = repo(ASSERTIONS);
    const r = await runCli(["validate", "--repo", dir, "--json"]);
    const v = JSON.parse(r.stdout) as {
      diagnostics: {
        file: string;
        line: number;
        column: number;
        severity: string;
        code: string;
        message: string;
      }[];
    };
    expect(
      v.diagnostics
        .filter((d) => d.code === "suite/invalid-gate-options")
        .map((d) => `${d.file}:${d.line}:${d.column} ${d.severity} ${d.message}`),
    ).toEqual([
      `${CASE_FILE}:11:13 error assertion \`typo\`: invalid options for gate conservation: /mdoe: unknown option 'mdoe' for gate conservation (did you mean 'mode'?); known: mode, invalid, runs`,
      `${CASE_FILE}:16:54 error assertion \`range\`: invalid options for gate boundary: /invalid: must be one of "throw", "throw-or-null"`,
      `${CASE_FILE}:17:87 error assertion \`bounds\`: invalid options for gate boundary: /domain/0: min 10 is above max 0`,
    ]);
    expect(r.code).not.toBe(0);
  });

  it("skillgate run refuses the suite before any trial: located, no agent call, never a pass", async () => {
    const { dir, calls } = repo(ASSERTIONS.slice(0, 8));
    const out = join(writeRepo({}, "sg-gate-opts-out-"), "report.json");
    scratch.push(join(out, ".."));
    const r = await runCli(["run", "--repo", dir, "--quiet", "--no-cache", "--json", out]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${CASE_FILE}:11:13`);
    const report = JSON.parse(readFileSync(out, "utf8")) as Report;
    expect(report.verdict).not.toBe("pass");
    expect(report.cost.agentCalls).toBe(0);
    expect(readFileSync(calls, "utf8")).toBe("");
  });

  it("options that go wrong once their placeholders resolve are an error when graded, and the gate never runs", async () => {
    const ran: string[] = [];
    const services: GradeServices = {
      runGate: async (gate: string): Promise<GateResult> => {
        ran.push(gate);
        return {
          gate,
          passed: true,
          seed: 1,
          checks: [{ id: "x", passed: true, message: "ok" }],
          metrics: {},
        };
      },
      runPredicate: () => Promise.reject(new Error("no predicate here")),
      runCommand: () => Promise.reject(new Error("no oracle here")),
    };
    const grade = async (rawType: string, vars: Record<string, unknown>) => {
      const a = asrt("g", rawType, {
        gate: "leakage",
        module: "src/split.ts",
        options: { mode: "$splitMode" },
      });
      const caseDef = mkCase("c1", [a]);
      const results = await gradeTrial({
        suite: mkSuite([caseDef]),
        caseDef,
        trial: mkTrial({ files: { "src/split.ts": "export function split() {}" } }),
        vars,
        repoDir: tmpdir(),
        gateSeed: 1,
        services,
      });
      return results.find((r) => r.assertionId === "g")!;
    };
    for (const rawType of ["gate", "not-gate"]) {
      const bad = await grade(rawType, { splitMode: "time" });
      expect(bad.status, rawType).toBe("error");
      expect(bad.message).toContain(
        'invalid options for gate leakage: /mode: must be one of "group", "temporal"',
      );
    }
    expect(ran).toEqual([]);
    expect((await grade("gate", { splitMode: "temporal" })).status).toBe("pass");
    expect(ran).toEqual(["leakage"]);
  });
});
