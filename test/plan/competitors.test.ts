/**
 * Competitor prompts on a budget (#19): a changed description runs only the other skills' prompts it is likeliest
 * to steal, and a prompt it does steal is still caught as a new root, end to end through the CLI with a `command`
 * agent that routes by word overlap (not by the BM25 proxy that ranks).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { routingKeyChanges } from "../../src/detect/changes.js";
import type { Report } from "../../src/model/index.js";
import {
  rankCompetitorPrompts,
  selectCasePrompts,
  selectCompetitorPrompts,
} from "../../src/plan/competitors.js";
import { crossSkillQueries, shouldFirePrompts, triggerCheckId } from "../../src/plan/queries.js";
import { comparePolicies, readConfig } from "../../src/settings/policy.js";
import { writeRepo } from "../support/repo-files.js";
import { runCli } from "../support/run-cli.js";

const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

/** Routes a trigger prompt to the installed skill whose description shares the most words (≥ 2) with it. */
const ROUTER = `import { existsSync, readdirSync, readFileSync } from "node:fs";
const prompt = readFileSync(0, "utf8");
const dir = ".agents/skills";
const words = (s) => new Set(s.toLowerCase().match(/[a-z]{4,}/g) ?? []);
const asked = words(prompt);
let best, bestScore = 1;
for (const s of existsSync(dir) ? readdirSync(dir).sort() : []) {
  const desc = /description:\\s*(.*)/.exec(readFileSync(dir + "/" + s + "/SKILL.md", "utf8"))?.[1] ?? "";
  const score = [...words(desc)].filter((w) => asked.has(w)).length;
  if (score > bestScore) { best = s; bestScore = score; }
}
process.stdout.write(JSON.stringify({ output: best ?? "none", skillsActivated: best ? [best] : [] }));
`;

const DOMAINS: Record<string, { description: string; fire: string[]; nofire: string[] }> = {
  alpha: {
    description: "Format calendar dates and clock times in human readable reports",
    fire: ["format these calendar dates for humans", "show clock times in readable reports"],
    nofire: ["paint the fence green", "water the garden plants"],
  },
  invoice: {
    description: "Compute invoice totals with taxes and discounts",
    fire: [
      "compute invoice totals with taxes for quarterly statements",
      "apply discounts to this invoice please",
      "invoice taxes are wrong, fix totals",
    ],
    nofire: ["tune the guitar strings", "bake sourdough bread"],
  },
  palette: {
    description: "Choose accessible colour palette contrast for interfaces",
    fire: [
      "pick an accessible colour palette",
      "check contrast of interface colours",
      "palette for dark interfaces",
    ],
    nofire: ["sort these numbers", "rename the branch"],
  },
  tenant: {
    description: "Write tenant scoped database queries that never leak rows",
    fire: [
      "write tenant scoped database queries",
      "queries leak rows across tenant",
      "database tenant isolation",
    ],
    nofire: ["draw a cartoon", "plan a holiday trip"],
  },
  queue: {
    description: "Build bounded worker queue with backpressure and retries",
    fire: ["build a bounded worker queue", "queue backpressure with retries", "worker retries in the queue"],
    nofire: ["translate into french", "count the vowels"],
  },
  email: {
    description: "Draft polite customer email replies about refunds",
    fire: ["draft polite customer email", "email replies about refunds", "customer refunds email draft"],
    nofire: ["solve this sudoku", "list prime numbers"],
  },
  chart: {
    description: "Plot sales chart with axis labels and legends",
    fire: ["plot sales chart", "chart axis labels and legends", "legends on the sales plot chart"],
    nofire: ["write a haiku", "compress this folder"],
  },
  cache: {
    description: "Design cache invalidation with expiry and versioned keys",
    fire: ["design cache invalidation", "versioned keys with expiry", "cache expiry for versioned keys"],
    nofire: ["feed the cat", "fold the laundry"],
  },
};

function repoFiles(alphaDescription: string, config: string): Record<string, string> {
  const files: Record<string, string> = { ".skillgate.yml": config };
  for (const [name, d] of Object.entries(DOMAINS)) {
    const description = name === "alpha" ? alphaDescription : d.description;
    files[`.claude/skills/${name}/SKILL.md`] =
      `---\nname: ${name}\ndescription: ${description}\n---\nHow to do ${name} work.\n`;
    files[`.agent/evals/${name}/trigger-eval.json`] = JSON.stringify({
      shouldFire: d.fire,
      shouldNotFire: d.nofire,
    });
  }
  return files;
}

const STEALING = `${DOMAINS.alpha!.description}; also compute invoice totals with taxes for quarterly statements`;

describe("rankCompetitorPrompts", () => {
  it("puts the prompts the new description wins first, whatever the input order", () => {
    const catalogue = Object.entries(DOMAINS).map(([name, d]) => ({
      name,
      description: name === "alpha" ? STEALING : d.description,
      trigger: {
        shouldFire: d.fire.map((prompt) => ({ prompt, weight: 1, loc: { file: "x", line: 1, column: 1 } })),
        shouldNotFire: [],
        loc: { file: "x", line: 1, column: 1 },
      },
    }));
    const cross = crossSkillQueries("alpha", catalogue);
    expect(cross).toHaveLength(21);
    const ranked = rankCompetitorPrompts("alpha", catalogue, cross);
    expect(ranked[0]!.query.prompt).toBe("compute invoice totals with taxes for quarterly statements");
    const reversed = rankCompetitorPrompts("alpha", catalogue, [...cross].reverse());
    expect(reversed.map((r) => r.query.prompt)).toEqual(ranked.map((r) => r.query.prompt));
    expect(selectCompetitorPrompts("alpha", catalogue, cross, 3)).toHaveLength(3);
    expect(selectCompetitorPrompts("alpha", catalogue, cross, undefined)).toHaveLength(21);
  });
});

describe("a description edit in a catalogue, end to end", () => {
  it("runs only the capped competitor prompts and still finds the prompt it steals", async () => {
    const agentDir = writeRepo({ "router.mjs": ROUTER }, "sg-comp-agent-");
    scratch.push(agentDir);
    const config = `agent:\n  adapter: command\n  command: ${JSON.stringify(`${process.execPath} ${join(agentDir, "router.mjs")}`)}\ncompetitors:\n  maxPrompts: 4\nconcurrency: 2\n`;
    const base = writeRepo(repoFiles(DOMAINS.alpha!.description, config), "sg-comp-base-");
    const head = writeRepo(repoFiles(STEALING, config), "sg-comp-head-");
    scratch.push(base, head);
    const out = join(head, "..", `${head.split("/").pop()}.json`);
    scratch.push(out);
    const r = await runCli([
      "run",
      "--repo",
      head,
      "--base-dir",
      base,
      "--json",
      out,
      "--quiet",
      "--no-cache",
    ]);
    const report = JSON.parse((await import("node:fs")).readFileSync(out, "utf8")) as Report;
    expect(report.errors).toEqual([]);
    expect(r.code).toBe(1);
    // Only the edited skill is evaluated: no other skill's whole battery runs.
    expect(report.skills.map((s) => s.name)).toEqual(["alpha"]);
    const stolen = report.newRoots.filter((x) => x.id.startsWith("trigger/cross/invoice/"));
    expect(stolen.map((x) => x.id).sort()).toEqual(["trigger/cross/invoice/0", "trigger/cross/invoice/2"]);
    // Both prompts it wins (the router breaks the tie on the second by name) rank in the top 4 of 21.
    // 4 own queries + 4 competitor prompts, 3 runs each, both arms; more only for confirmation of the suspect.
    const alpha = report.skills.find((s) => s.name === "alpha")!;
    for (const arm of [alpha.evidence!.head, alpha.evidence!.base!]) {
      const cross = new Set(arm.filter((c) => c.checkId.startsWith("trigger/cross/")).map((c) => c.checkId));
      expect(cross.size).toBe(4);
    }
    const firstBatch = (4 + 4) * 3 * 2;
    const confirmation = report.cost.agentCalls - firstBatch;
    expect(confirmation).toBeGreaterThan(0);
    expect(confirmation).toBeLessThanOrEqual(2 * 55);
  }, 120_000);

  it("a PR that lowers competitors.maxPrompts loosens the policy", () => {
    const src = (text: string) => {
      const dir = writeRepo({ ".skillgate.yml": text }, "sg-comp-cfg-");
      scratch.push(dir);
      return readConfig({ kind: "dir", dir });
    };
    const defaults = { trials: 3, triggerRuns: 3, competitorPrompts: 20, casePrompts: 10 };
    const lowered = comparePolicies(
      src("competitors:\n  maxPrompts: 20\n"),
      src("competitors:\n  maxPrompts: 2\n"),
      defaults,
    );
    expect(lowered).toMatchObject([{ key: "competitors.maxPrompts", kind: "loosened", line: 2 }]);
    const unset = comparePolicies(
      src("trials: 3\n"),
      src("trials: 3\ncompetitors:\n  maxPrompts: 5\n"),
      defaults,
    );
    expect(unset).toMatchObject([{ key: "competitors.maxPrompts", kind: "loosened" }]);
    expect(
      comparePolicies(src("trials: 3\n"), src("trials: 3\ncompetitors:\n  maxPrompts: 50\n"), defaults),
    ).toMatchObject([{ key: "competitors.maxPrompts", kind: "tightened" }]);
  });
});

describe("routing without a trigger suite: what runs and what a PR may loosen", () => {
  const loc = { file: "x", line: 1, column: 1 };
  const cases = ["format these calendar dates", "compute invoice totals with taxes", "show clock times"].map(
    (prompt, i) => ({ id: `c${i}`, prompt, loc }),
  );

  it("a skill without should-fire prompts is judged by its case prompts, the weakest held first", () => {
    const queries = shouldFirePrompts({ name: "alpha", cases });
    expect(queries.map(triggerCheckId)).toEqual(["trigger/case/c0", "trigger/case/c1", "trigger/case/c2"]);
    expect(queries.every((q) => q.shouldFire)).toBe(true);
    // A trigger set with should-fire prompts wins over the cases.
    const set = { shouldFire: [{ prompt: "p", weight: 1, loc }], shouldNotFire: [], loc };
    expect(shouldFirePrompts({ name: "alpha", trigger: set, cases }).map(triggerCheckId)).toEqual([
      "trigger/fire/0",
    ]);
    // As another skill's negatives they keep their case ids.
    expect(crossSkillQueries("beta", [{ name: "alpha", cases }]).map(triggerCheckId)).toContain(
      "trigger/cross/alpha/case/c1",
    );
    // With a budget of 1, the case prompt the description holds by the smallest margin: the invoice one, which
    // the invoice skill outbids.
    const catalogue = [
      { name: "alpha", description: DOMAINS.alpha!.description },
      { name: "invoice", description: DOMAINS.invoice!.description },
    ];
    expect(selectCasePrompts("alpha", catalogue, queries, 1).map((q) => q.fromCase)).toEqual(["c1"]);
    expect(selectCasePrompts("alpha", catalogue, queries, undefined)).toHaveLength(3);
  });

  it("what the router reads is every frontmatter key but the router-blind ones", () => {
    const base = { name: "a", description: "d", license: "MIT", metadata: { v: 1 } };
    expect(routingKeyChanges(base, { ...base, license: "ISC", metadata: { v: 2 } })).toEqual([]);
    expect(routingKeyChanges(base, { ...base, "disable-model-invocation": true })).toEqual([
      "disable-model-invocation",
    ]);
    expect(routingKeyChanges({ ...base, when_to_use: "w" }, base)).toEqual(["when_to_use"]);
  });

  it("a PR that lowers routing.casePrompts or drops requireSuite loosens the policy", () => {
    const src = (text: string) => {
      const dir = writeRepo({ ".skillgate.yml": text }, "sg-route-cfg-");
      scratch.push(dir);
      return readConfig({ kind: "dir", dir });
    };
    const defaults = { trials: 3, triggerRuns: 3, competitorPrompts: 20, casePrompts: 10 };
    expect(
      comparePolicies(src("trials: 3\n"), src("trials: 3\nrouting:\n  casePrompts: 2\n"), defaults),
    ).toMatchObject([{ key: "routing.casePrompts", kind: "loosened" }]);
    expect(
      comparePolicies(src("trials: 3\nrequireSuite: true\n"), src("trials: 3\n"), defaults),
    ).toMatchObject([{ key: "requireSuite", kind: "loosened" }]);
    expect(
      comparePolicies(src("trials: 3\n"), src("trials: 3\nrequireSuite: true\n"), defaults),
    ).toMatchObject([{ key: "requireSuite", kind: "tightened" }]);
  });
});
