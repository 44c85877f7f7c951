/**
 * Template cases end to end (#31): every placeholder form docs/assertions.md documents goes through `skillgate
 * validate` and `skillgate run` (real discovery, sandboxed oracles, the `command` adapter running an agent that
 * answers with the prompt it received and the tool calls the prompt lists), not only through the evaluator.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Report } from "../../src/model/index.js";
import { runCli } from "../support/run-cli.js";

/** Answers with the prompt it received (minus the CALLS list) and makes the calls the prompt lists. */
const AGENT = `import { readFileSync } from "node:fs";
const prompt = readFileSync(0, "utf8");
const m = /CALLS (\\[.*\\])/s.exec(prompt);
process.stdout.write(JSON.stringify({ output: prompt.replace(/CALLS \\[.*\\]/s, "").trim(), toolCalls: m ? JSON.parse(m[1]) : [] }));
`;

const SUITE = ".agent/evals/tpl";

function repoWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "sg-tpl-"));
  const all: Record<string, string> = {
    ".claude/skills/tpl/SKILL.md": "---\nname: tpl\ndescription: Answers template questions.\n---\nAnswer.\n",
    "agent.mjs": AGENT,
    ...files,
  };
  for (const [rel, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  writeFileSync(
    join(dir, ".skillgate.yml"),
    `agent:\n  adapter: command\n  command: ${JSON.stringify(`${process.execPath} ${join(dir, "agent.mjs")}`)}\ntrials: 1\n`,
  );
  return dir;
}

const META = JSON.stringify({
  trials: 1,
  oracle: "node oracle.mjs",
  vars: {
    total: 1000,
    n: 3,
    cfg: { currency: "EUR" },
    parts: [334, 333, 333],
    allowed: [1000, 1001],
    wrong: [333, 999],
    words: ["Split", "EUR"],
    r: [990, 1010],
    lo: 999,
    hi: 1001,
    steps: ["Read", "Write"],
    tools: ["Read", "Write", "query"],
    first_file: "a.txt",
    n_clusters: 2,
    forbidden: "Bash",
    has_k8s: false,
  },
});

const VALUES_CASE = `id: values
prompt: "Split $total cents among $n people in $cfg.currency; the parts are $parts."
assertions:
  - { id: interpolated, type: contains, value: "Split $total cents among $n people in $cfg.currency" }
  - { id: no-literal-placeholder, type: not-contains, value: "$$total" }
  - { id: whole-typed, type: equals, extract: first-number, value: $total }
  - { id: path, type: contains, value: "$parts[0]" }
  - { id: one-of-list, type: one-of, extract: first-number, values: $allowed }
  - { id: not-one-of-list, type: not-one-of, extract: first-number, values: $wrong }
  - { id: contains-list, type: contains, values: $words }
  - { id: range-whole, type: number-range, range: $r }
  - { id: range-bounds, type: number-range, range: ["$lo", "$hi"] }
  - { id: dollar-anchor, type: regex, value: "are \\\\[334,333,333\\\\]\\\\.$" }
`;

const PROCESS_CASE = `id: process
prompt: 'Query every cluster. CALLS [{"name":"Read","input":{"file_path":"a.txt"}},{"name":"query","input":{"cluster_name":"east"}},{"name":"query","input":{"cluster_name":"west"}},{"name":"Write","input":{"file_path":"b.txt"}}]'
assertions:
  - { id: scope, type: tool-called, tool: query, scope: { arg: cluster_name, values: $clusters } }
  - { id: order, type: tool-order, values: $steps }
  - { id: allowed, type: allowed-tools, values: $tools }
  - { id: literal-arg, type: tool-called, tool: Read, args: { file_path: $first_file } }
  - { id: count, type: tool-called, tool: query, count: $n_clusters }
  - { id: not-called, type: tool-not-called, tool: $forbidden }
  - { id: k8s-only, type: tool-called, tool: kubectl, condition: $has_k8s }
  - { id: when-many, type: tool-called, tool: query, condition: "$n > 2 && !$has_k8s" }
`;

const CASE_ORACLE = `id: per-case
prompt: "The answer for $case_name is $expected (total $total)."
vars: { case_name: per-case, total: 5 }
oracle: node case-oracle.mjs per-case
assertions:
  - { id: from-case-oracle, type: contains, value: "is 42 (total 7)" }
  - { id: case-vars, type: contains, value: "for $case_name" }
`;

describe("templates through validate and run", () => {
  const files = {
    [`${SUITE}/meta.json`]: META,
    [`${SUITE}/oracle.mjs`]: 'console.log(JSON.stringify({ clusters: ["east", "west"] }));\n',
    [`${SUITE}/case-oracle.mjs`]:
      "console.log(JSON.stringify({ expected: 42, total: 7, case: process.argv[2] }));\n",
    [`${SUITE}/prompts/values.yaml`]: VALUES_CASE,
    [`${SUITE}/prompts/process.yaml`]: PROCESS_CASE,
    [`${SUITE}/prompts/per-case.yaml`]: CASE_ORACLE,
  };

  it("accepts every documented form in validate", async () => {
    const dir = repoWith(files);
    const r = await runCli(["validate", "--repo", dir]);
    expect(r.stdout).toContain("0 error(s)");
    expect(r.code).toBe(0);
  });

  it("resolves every form when graded, and the agent receives the prompt resolved", async () => {
    const dir = repoWith(files);
    const out = join(dir, "report.json");
    const r = await runCli(["run", "--repo", dir, "--json", out, "--quiet", "--no-cache"]);
    const report = JSON.parse(readFileSync(out, "utf8")) as Report;
    const checks = report.skills[0]!.evidence!.head.filter((c) => c.mode === "skill");
    const bad = checks.filter((c) => c.status !== "pass" && c.assertionId !== "k8s-only");
    expect(bad.map((c) => c.message)).toEqual([]);
    expect(checks.find((c) => c.assertionId === "k8s-only")!.status).toBe("skipped");
    // one check per assertion of the three cases, plus trial-ok each
    expect(checks).toHaveLength(10 + 8 + 2 + 3);
    expect(report.verdict).toBe("pass");
    expect(r.code).toBe(0);
  });

  it("rejects in validate, located, what the known values make wrong", async () => {
    const dir = repoWith({
      [`${SUITE}/meta.json`]: JSON.stringify({ vars: { n: 3, lo: "low", hi: 5 } }),
      [`${SUITE}/prompts/bad.yaml`]: `id: bad
prompt: "Split among $nobody"
assertions:
  - { id: list-of-number, type: one-of, values: $n }
  - { id: bounds, type: number-range, range: ["$lo", "$hi"] }
  - { id: unknown, type: contains, value: "$missing" }
  - { id: cond, type: contains, value: x, condition: "$n >" }
`,
    });
    const r = await runCli(["validate", "--repo", dir]);
    expect(r.code).toBe(2);
    const at = `${SUITE}/prompts/bad.yaml`;
    expect(r.stdout).toContain(`${at}:2:9: error: the prompt of case \`bad\`: $nobody names no variable`);
    expect(r.stdout).toMatch(
      new RegExp(`${at}:4:5: error: assertion \`list-of-number\`: with \\$n = 3: \`values\` must be array`),
    );
    expect(r.stdout).toMatch(
      new RegExp(`${at}:5:5: error: assertion \`bounds\`: with \\$lo = "low", \\$hi = 5:`),
    );
    expect(r.stdout).toContain(`${at}:6:5: error: assertion \`unknown\`: $missing names no variable`);
    expect(r.stdout).toContain(`${at}:7:5: error: assertion \`cond\`: condition "$n >" ends too early`);
  });

  it("checks at grading what an oracle computed: a wrong shape is an error, never a pass", async () => {
    const dir = repoWith({
      [`${SUITE}/meta.json`]: JSON.stringify({ oracle: "node oracle.mjs" }),
      [`${SUITE}/oracle.mjs`]: 'console.log(JSON.stringify({ wrong: 333, word: "ok" }));\n',
      [`${SUITE}/prompts/c.yaml`]: `id: c
prompt: "Say $word"
assertions:
  - { id: forbidden, type: not-one-of, extract: first-number, values: $wrong }
  - { id: said, type: contains, value: "Say ok" }
`,
    });
    expect((await runCli(["validate", "--repo", dir])).code).toBe(0);
    const out = join(dir, "report.json");
    const r = await runCli(["run", "--repo", dir, "--json", out, "--quiet", "--no-cache"]);
    const report = JSON.parse(readFileSync(out, "utf8")) as Report;
    const checks = report.skills[0]!.evidence!.head.filter((c) => c.mode === "skill");
    const forbidden = checks.find((c) => c.assertionId === "forbidden")!;
    expect(forbidden.status).toBe("error");
    expect(forbidden.message).toMatch(/after placeholders resolve .*`values` must be array/);
    expect(checks.find((c) => c.assertionId === "said")!.status).toBe("pass");
    expect(r.code).not.toBe(0);
  });
});
