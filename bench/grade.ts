import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { routeLexical } from "../src/detect/lexical-router.js";
import { summariseDiscriminator } from "../src/grade/discriminator.js";
import { gradeTrial } from "../src/grade/grade-trial.js";
import type { Assertion, Case, CheckResult, Suite, TrialRecord } from "../src/model/index.js";
import { ZERO_USAGE } from "../src/model/index.js";
import type { BenchContext } from "./types.js";

/**
 * Cost of grading itself, next to agent calls that take seconds: in-process assertions (output, file and trace
 * types, placeholders, depends_on) per trial, the discriminator summary, and the lexical proxy router per query
 * over the 12 real anthropics/skills descriptions.
 */

const TRIALS = 2000;
const ROUTE_QUERIES = 2000;
const CORPUS = "test/fixtures/corpus/anthropics-skills";
const FALLBACK_CATALOGUE = [
  { name: "split-cents", description: "Split money in cents among people without losing a cent." },
  { name: "tenant-sql", description: "Write SQL handlers for multi-tenant databases that never leak rows." },
];

let line = 1;
function a(
  id: string,
  type: string,
  params: Record<string, unknown>,
  extra: Partial<Assertion> = {},
): Assertion {
  return {
    id,
    rawType: type,
    type,
    negate: false,
    discriminator: id.startsWith("D:"),
    dependsOn: [],
    params,
    loc: { file: "evals/prompts/bench.yaml", line: line++, column: 1 },
    ...extra,
  };
}

const CASE: Case = {
  id: "split",
  prompt: "split",
  files: [],
  vars: { total: 1000, clusters: ["east", "west"] },
  loc: { file: "evals/prompts/bench.yaml", line: 1, column: 1 },
  assertions: [
    a("mentions", "contains", { value: "$total" }),
    a("D:no-333", "not-one-of", { values: [333] }, { extract: "first-number" }),
    a("range", "number-range", { range: [330, 340] }),
    a("json", "equals", { value: 1000 }, { extract: "json:sum", dependsOn: ["mentions"] }),
    a("file", "file-contains", { file: "src/*.ts", value: "Math.floor" }),
    a("used", "skill-used", {}),
    a("scope", "tool-called", { tool: "fetch", scope: { arg: "cluster", values: "$clusters" } }),
    a("order", "tool-order", { values: ["fetch", "Write"] }),
  ],
};

const SUITE: Suite = {
  skill: "split-cents",
  root: "evals",
  formats: ["seed"],
  meta: { thresholds: {}, vars: {}, loc: CASE.loc, keyLoc: {} },
  cases: [CASE],
  sourceFiles: [],
};

function record(trial: number): TrialRecord {
  const mode = trial % 2 === 0 ? "skill" : "baseline";
  const good = mode === "skill" ? trial % 10 !== 0 : trial % 3 === 0;
  return {
    key: `k${trial}`,
    skill: "split-cents",
    caseId: "split",
    mode,
    trial,
    output: good ? 'Parts 334, 333, 333 ```json\n{"sum": 1000}\n```' : "Parts 333, 333, 333, total 1000",
    toolCalls: [
      { name: "fetch", input: { cluster: "east" }, turn: 0 },
      { name: "fetch", input: { cluster: "west" }, turn: 0 },
      { name: "Write", input: { file_path: "src/split.ts" }, turn: 1 },
    ],
    skillsActivated: good ? ["split-cents"] : [],
    files: { "src/split.ts": good ? "Math.floor(total / n)" : "Math.round(total / n)" },
    usage: ZERO_USAGE,
    durationMs: 1,
  };
}

function catalogue(): { name: string; description: string }[] {
  try {
    return readdirSync(CORPUS, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => {
        const raw = readFileSync(path.join(CORPUS, d.name, "SKILL.md"), "utf8");
        const fm = parse(raw.split(/^---$/m)[1] ?? "") as { name: string; description: string };
        return { name: fm.name, description: fm.description };
      });
  } catch {
    return FALLBACK_CATALOGUE;
  }
}

export async function bench(ctx: BenchContext): Promise<Record<string, unknown>> {
  const records = Array.from({ length: TRIALS }, (_, i) => record(i));
  const checks: CheckResult[] = [];
  const t0 = performance.now();
  for (const r of records) {
    checks.push(
      ...(await gradeTrial({
        suite: SUITE,
        caseDef: CASE,
        trial: r,
        vars: {},
        repoDir: ctx.root,
        gateSeed: 1,
      })),
    );
  }
  const gradeMs = performance.now() - t0;
  const t1 = performance.now();
  const summary = summariseDiscriminator(checks);
  const summaryMs = performance.now() - t1;

  const cat = catalogue();
  const prompts = [
    "Create a slack gif of a dancing cat",
    "Build an MCP server for the GitHub API",
    "Write me a poem about rain",
  ];
  const t2 = performance.now();
  for (let i = 0; i < ROUTE_QUERIES; i++) routeLexical(prompts[i % prompts.length]!, cat);
  const routeMs = performance.now() - t2;

  const fig = {
    trialsGraded: TRIALS,
    assertionsPerTrial: CASE.assertions.length,
    msPerTrial: round(gradeMs / TRIALS, 4),
    discriminatorSummaryMs: round(summaryMs, 2),
    lexicalCatalogueSize: cat.length,
    lexicalMsPerQuery: round(routeMs / ROUTE_QUERIES, 4),
  };
  ctx.log(
    `grade: ${TRIALS} trials × ${CASE.assertions.length} in-process assertions graded at ${fig.msPerTrial} ms per trial (lift ${summary.lift.toFixed(2)})`,
  );
  ctx.log(`grade: discriminator summary of ${checks.length} checks in ${fig.discriminatorSummaryMs} ms`);
  ctx.log(`grade: lexical proxy router ${fig.lexicalMsPerQuery} ms per query over ${cat.length} skills`);
  return fig;
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
