/**
 * `skillgate harvest` on the bundled demo (#31): the demo agent (examples/demo-agent, a real process speaking the
 * `command` protocol) run unguided on the demo's tasks, with the demo's discriminators taken out of the suite:
 * harvest must find them again from what the baseline got wrong, measure them, and write them as a patch that
 * applies and validates. Nothing in the repository is changed by harvest itself.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import type { HarvestProposal, HarvestReport } from "../../src/model/index.js";
import { runCli } from "../support/run-cli.js";

const DEMO = "examples/demo-repo-base";

/** A copy of the demo's base with every `D:` assertion removed, and a config running the demo agent. */
function demoWithoutDiscriminators(): string {
  const dir = mkdtempSync(join(tmpdir(), "sg-harvest-"));
  cpSync(DEMO, dir, { recursive: true });
  cpSync("examples/demo-agent", join(dir, "demo-agent"), { recursive: true });
  for (const rel of [
    ".agent/evals/split-cents/prompts/split-1000-3.yaml",
    ".agent/evals/split-cents/prompts/split-weights.yaml",
    ".agent/evals/split-cents/assertions/split-refund.yaml",
    ".agent/evals/accessible-palette/prompts/muted-secondary.yaml",
    ".claude/skills/tenant-sql/evals/prompts/get-invoice.yaml",
    ".claude/skills/tenant-sql/evals/prompts/list-orders.yaml",
  ]) {
    const doc = parseDocument(readFileSync(join(dir, rel), "utf8"));
    const list = (
      doc.contents && "items" in doc.contents && !doc.has("assertions") ? doc.contents : doc.get("assertions")
    ) as {
      items: { get(k: string): unknown }[];
    };
    list.items = list.items.filter((i) => !String(i.get("id")).startsWith("D:"));
    // A case left without checks keeps one that says nothing about the answer.
    if (list.items.length === 0)
      (list as unknown as { add(v: unknown): void }).add(
        doc.createNode({ id: "answered", type: "regex", value: "." }),
      );
    writeFileSync(join(dir, rel), String(doc));
  }
  writeFileSync(
    join(dir, "harvest.skillgate.yml"),
    `agent:\n  adapter: command\n  command: ${JSON.stringify(`${process.execPath} ${join(dir, "demo-agent/agent.mjs")}`)}\nconcurrency: 4\n`,
  );
  return dir;
}

const find = (r: HarvestReport, caseId: string) =>
  r.skills
    .flatMap((s) => s.cases)
    .find((c) => c.id === caseId)!
    .proposals.filter((p) => p.kind === "not-one-of");

describe("skillgate harvest", () => {
  it("proposes the demo's discriminators from baseline failures, measured, as a patch that applies and validates", async () => {
    const dir = demoWithoutDiscriminators();
    const before = readFileSync(join(dir, ".agent/evals/split-cents/assertions/split-refund.yaml"), "utf8");
    const json = join(dir, "harvest.json");
    const patch = join(dir, "harvest.patch");
    const args = ["harvest", "--repo", dir, "--config", join(dir, "harvest.skillgate.yml"), "--with-skill"];
    const r = await runCli([...args, "--quiet", "--no-cache", "--json", json, "--patch", patch]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const report = JSON.parse(readFileSync(json, "utf8")) as HarvestReport;
    const only = (ps: HarvestProposal[]) =>
      ps.map((p) => ({ extract: p.assertion.extract, values: p.assertion.values }));
    // 333 cents each (the lost cent), [33, 33, 33], slate-400 gray, SQL by id only: the demo's traps.
    expect(only(find(report, "split-refund"))).toEqual([{ extract: "first-number", values: [333] }]);
    expect(only(find(report, "split-weights"))).toEqual([{ extract: "json", values: [[33, 33, 33]] }]);
    expect(only(find(report, "muted-secondary"))).toEqual([{ extract: "json:color", values: ["#94a3b8"] }]);
    expect(only(find(report, "list-orders"))).toEqual([
      { extract: "last-line", values: ["SELECT * FROM orders WHERE id = ?"] },
    ]);
    for (const p of report.skills.flatMap((s) => s.cases.flatMap((c) => c.proposals))) {
      expect(p.baselineFailure.rate).toBeGreaterThanOrEqual(0.3);
      expect(p.skillPass!.rate).toBeGreaterThanOrEqual(0.8);
      expect(p.example).toBeDefined();
    }
    // The conservation gate fails the baseline and passes the skill: marked a discriminator.
    const marks = report.skills
      .flatMap((s) => s.cases.flatMap((c) => c.proposals))
      .filter((p) => p.kind === "mark-discriminator");
    expect(marks.map((p) => p.assertion.id)).toContain("split-conserves");
    expect(r.stdout).toContain("PROPOSE not-one-of D:not-333");
    // Never applied without the user: the suite is as it was.
    expect(readFileSync(join(dir, ".agent/evals/split-cents/assertions/split-refund.yaml"), "utf8")).toBe(
      before,
    );
    // The patch changes only what it adds, applies at the root, and the result validates.
    const diff = readFileSync(patch, "utf8");
    expect(diff).not.toMatch(/^-(?!--)/m);
    expect((await execa("git", ["apply", "--check", patch], { cwd: dir, reject: false })).exitCode).toBe(0);
    await execa("git", ["apply", patch], { cwd: dir });
    expect(
      readFileSync(join(dir, ".agent/evals/split-cents/assertions/split-refund.yaml"), "utf8"),
    ).toContain("- id: D:not-333\n  type: not-one-of\n  extract: first-number\n");
    const v = await runCli(["validate", "--repo", dir]);
    expect(v.stdout).toContain("0 error(s)");
  }, 300_000);

  it("takes tasks from a prompts file and writes them as new cases with their discriminators", async () => {
    const dir = demoWithoutDiscriminators();
    writeFileSync(
      join(dir, "tasks.yaml"),
      "- A 10.00 EUR refund must be paid back to 3 card holders. How many cents does each get? Answer with the three amounts in cents, largest first, one per line.\n",
    );
    const patch = join(dir, "p.diff");
    const r = await runCli([
      "harvest",
      "--repo",
      dir,
      "--skills",
      "split-cents",
      "--prompts",
      join(dir, "tasks.yaml"),
      "--config",
      join(dir, "harvest.skillgate.yml"),
      "--with-skill",
      "--quiet",
      "--no-cache",
      "--patch",
      patch,
    ]);
    expect(r.code).toBe(0);
    expect(readFileSync(patch, "utf8")).toContain("+++ b/.agent/evals/split-cents/prompts/prompt-1.yaml");
    await execa("git", ["apply", patch], { cwd: dir });
    const written = parseDocument(
      readFileSync(join(dir, ".agent/evals/split-cents/prompts/prompt-1.yaml"), "utf8"),
    ).toJS() as { assertions: Record<string, unknown>[] };
    expect(written.assertions).toEqual([
      { id: "D:not-333", type: "not-one-of", extract: "first-number", values: [333] },
    ]);
    expect((await runCli(["validate", "--repo", dir])).stdout).toContain("0 error(s)");
  }, 300_000);

  it("says the cost first and runs nothing over the budget", async () => {
    const dir = demoWithoutDiscriminators();
    writeFileSync(
      join(dir, "tight.skillgate.yml"),
      `${readFileSync(join(dir, "harvest.skillgate.yml"), "utf8")}budget:\n  maxAgentCalls: 5\n`,
    );
    const json = join(dir, "h.json");
    const r = await runCli([
      "harvest",
      "--repo",
      dir,
      "--config",
      join(dir, "tight.skillgate.yml"),
      "--no-cache",
      "--quiet",
      "--json",
      json,
    ]);
    expect(r.code).toBe(3);
    const report = JSON.parse(readFileSync(json, "utf8")) as HarvestReport;
    // Both arms by default: 6 cases × 5 trials × (baseline + skill).
    expect(report.forecast.total.agentCalls).toBe(60);
    expect(report.forecast.overBudget).toBeDefined();
    expect(report.cost.agentCalls).toBe(0);
    expect(r.stdout).toMatch(/error: not run: .*budget/);
  });
});
