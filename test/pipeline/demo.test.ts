import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Report } from "../../src/model/index.js";
import { DEFAULT_VERDICT_POLICY } from "../../src/settings/defaults.js";
import { evidenceDisagreements } from "../../src/verdict/recompute.js";
import { runCli } from "../support/run-cli.js";

const HEAD = "examples/demo-repo";
const BASE = "examples/demo-repo-base";

describe("the bundled demo (replayed recordings, offline)", () => {
  it("fails the PR with new roots located in the edited skill and its suite", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "sg-demo-")), "report.json");
    const r = await runCli([
      "run",
      "--repo",
      HEAD,
      "--base-dir",
      BASE,
      "--json",
      out,
      "--quiet",
      "--no-cache",
    ]);
    expect(r.code).toBe(1);
    const report = JSON.parse(readFileSync(out, "utf8")) as Report;
    expect(report.verdict).toBe("fail");
    expect(report.errors).toEqual([]);
    expect(report.cost.agentCalls).toBe(0);
    const split = report.skills.find((s) => s.name === "split-cents")!;
    expect(split.change).toBe("body");
    expect(split.verdict).toBe("fail");
    // the discriminator the edit broke, at its assertion line in the suite
    const disc = report.newRoots.find((x) => x.id === "split-refund/D:sums-to-total")!;
    expect(disc).toMatchObject({
      file: ".agent/evals/split-cents/assertions/split-refund.yaml",
      line: 2,
      status: "new",
    });
    expect(disc.head!.failed).toBeGreaterThan(disc.base!.failed);
    // the gate on the code the agent wrote
    expect(report.newRoots.find((x) => x.id === "split-1000-3/split-conserves")).toMatchObject({
      kind: "assertion",
      file: ".agent/evals/split-cents/prompts/split-1000-3.yaml",
      line: 12,
    });
    // trigger roots sit on the description line the router reads
    const trig = report.newRoots.filter((x) => x.kind === "trigger");
    expect(trig.length).toBeGreaterThan(0);
    for (const t of trig) expect(t).toMatchObject({ file: ".claude/skills/split-cents/SKILL.md", line: 3 });
    // the recorded figures the README shows
    expect(report.blockingRoots).toHaveLength(11);
    // Recall (3 of 10 queries) is confidently under the threshold the base meets: new too. The discriminator
    // figures are under theirs by the point figure only (three cases): reported, not blocking.
    expect(report.newRoots.map((x) => x.id).sort()).toEqual([
      "split-1000-3/split-conserves",
      "split-refund/D:sums-to-total",
      "split-weights/D:not-33-each",
      "threshold/triggerRecall",
      ...[2, 4, 5, 6, 7, 8, 9].map((i) => `trigger/fire/${i}`),
    ]);
    expect(split.roots.filter((x) => x.kind === "threshold" && !x.blocking).map((x) => x.status)).toEqual([
      "not-significant",
      "not-significant",
    ]);
    // first batch 3, then looks at 5 and 13 head trials; the base arm filled to 30 at the first confirmation
    expect(disc).toMatchObject({ head: { failed: 12, trials: 13 }, base: { failed: 2, trials: 30 } });
    // a root failing at base too is reported, not blocking, and its confirmation stops once each arm has 10 trials
    // (at the look of 13; Wald's ratio alone never settled a check failing in every trial of both arms)
    const pre = split.roots.find((x) => x.id === "split-refund/last-line-is-cents")!;
    expect(pre).toMatchObject({
      status: "pre-existing",
      blocking: false,
      head: { failed: 13, trials: 13 },
      base: { failed: 30, trials: 30 },
    });
    expect(report.newRoots.map((x) => x.id)).not.toContain("split-refund/last-line-is-cents");
    // figures: the skill at base lifted discriminators; the head lost the lift
    expect(split.base!.discriminator!.discriminatorLift).toBeGreaterThan(0.3);
    expect(split.discriminator!.discriminatorLift).toBeLessThan(0.1);
    expect(split.trigger!.recall.rate).toBeLessThan(split.base!.trigger!.recall.rate);
    // The other skills are not re-run whole: their should-fire prompts run in both arms as split-cents' cross-skill
    // negatives (all of them: the demo's catalogue has fewer than competitors.maxPrompts), and none is stolen.
    expect(report.skills.map((s) => s.name)).toEqual(["split-cents"]);
    for (const arm of [split.evidence!.head, split.evidence!.base!]) {
      const owners = new Set(
        arm.filter((c) => c.checkId.startsWith("trigger/cross/")).map((c) => c.checkId.split("/")[2]),
      );
      expect([...owners].sort()).toEqual(["accessible-palette", "tenant-sql"]);
    }
    expect(report.newRoots.filter((x) => x.id.startsWith("trigger/cross/"))).toEqual([]);
    expect(r.stdout).toContain("skillgate: FAIL");
    // Cascades counted (#31): the gate's dependent is skipped when the gate fails, a failed check of its root.
    expect(report.stats.failedChecks).toBeGreaterThan(report.stats.roots);
    const conserves = report.newRoots.find((x) => x.id === "split-1000-3/split-conserves")!;
    expect(conserves.cascaded).toEqual(["split-1000-3/reports-conserved-parts"]);
    expect(conserves.level).toBe("final-state");
    expect(split.failedChecks).toBeGreaterThan(split.roots.length);
    expect(r.stdout).toMatch(/failed checks (\d+) → roots (\d+)/);
    const [, failed, rootsN] = /failed checks (\d+) → roots (\d+)/.exec(r.stdout)!;
    expect(Number(failed)).toBeGreaterThan(Number(rootsN));
    // The three levels, per skill and for the PR, in the JSON and on the terminal.
    for (const levels of [split.levels!, report.levels!]) {
      expect(levels.map((l) => l.mode)).toEqual(["skill", "baseline"]);
      for (const l of levels) for (const n of Object.values(l.checks)) expect(n).toBeGreaterThan(0);
    }
    expect(r.stdout).toMatch(/levels, skill runs \(\d+ outcome, \d+ final-state, \d+ process check\(s\)\)/);
    expect(r.stdout).toContain("level final-state; cascaded (1): split-1000-3/reports-conserved-parts");
    // An honest report's statistical verdict follows from the per-trial evidence it carries (what report mode
    // recomputes before posting a stored report), and a forged status does not.
    expect(evidenceDisagreements(report, DEFAULT_VERDICT_POLICY)).toEqual([]);
    split.roots.find((x) => x.id === "split-refund/D:sums-to-total")!.status = "pre-existing";
    expect(evidenceDisagreements(report, DEFAULT_VERDICT_POLICY).join("\n")).toMatch(
      /split-refund\/D:sums-to-total is new by the evidence; the report says pre-existing/,
    );
  });

  it("reproduces the same verdict from the same recordings and seed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sg-demo2-"));
    const a = join(dir, "a.json");
    const b = join(dir, "b.json");
    await runCli(["run", "--repo", HEAD, "--base-dir", BASE, "--json", a, "--quiet", "--no-cache"]);
    await runCli(["run", "--repo", HEAD, "--base-dir", BASE, "--json", b, "--quiet", "--no-cache"]);
    const strip = (f: string) => {
      const r = JSON.parse(readFileSync(f, "utf8")) as Report;
      return {
        verdict: r.verdict,
        roots: r.skills.map((s) => s.roots),
        figures: r.skills.map((s) => [s.discriminator, s.trigger]),
      };
    };
    expect(strip(a)).toEqual(strip(b));
    // Each report keeps its own skill-creator exports: the second run did not overwrite the first's.
    expect(readdirSync(dir).sort()).toEqual(["a.json", "a.skill-creator", "b.json", "b.skill-creator"]);
    for (const r of ["a", "b"])
      expect(
        JSON.parse(readFileSync(join(dir, `${r}.skill-creator/split-cents/benchmark.json`), "utf8")).runs
          .length,
      ).toBeGreaterThan(0);
  });

  it("passes when head equals base: nothing changed, nothing to run", async () => {
    const r = await runCli(["run", "--repo", BASE, "--base-dir", BASE, "--quiet", "--no-cache"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("skillgate: PASS");
  });

  it("treats a missing recording as an error (exit 3), never a pass", async () => {
    // Recordings are read from the base (the trusted tree), so that is where one goes missing.
    const dir = mkdtempSync(join(tmpdir(), "sg-demo3-"));
    cpSync(BASE, dir, { recursive: true });
    rmSync(join(dir, ".skillgate/recordings/split-cents.jsonl"));
    writeFileSync(join(dir, ".skillgate/recordings/split-cents.jsonl"), "");
    const out = join(dir, "r.json");
    const r = await runCli([
      "run",
      "--repo",
      HEAD,
      "--base-dir",
      dir,
      "--json",
      out,
      "--quiet",
      "--no-cache",
    ]);
    const report = JSON.parse(readFileSync(out, "utf8")) as Report;
    const split = report.skills.find((s) => s.name === "split-cents")!;
    expect(split.errors.some((e) => /recording/i.test(e.message))).toBe(true);
    expect(split.verdict).not.toBe("pass");
    expect(r.code).not.toBe(0);
  });
});

describe("recordings in the checkout", () => {
  it("are never read: a PR that commits passing answers for its own trials changes nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sg-demo4-"));
    cpSync(HEAD, dir, { recursive: true });
    // The forgery: every head trial answered with the base's (passing) answers, committed in the PR.
    cpSync(join(BASE, ".skillgate"), join(dir, ".skillgate"), { recursive: true });
    const forged = readFileSync(join(dir, ".skillgate/recordings/split-cents.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { record: { output: string } })
      .map((r) => JSON.stringify({ ...r, record: { ...r.record, output: "334\n333\n333 (1000 cents)" } }));
    writeFileSync(join(dir, ".skillgate/recordings/split-cents.jsonl"), `${forged.join("\n")}\n`);
    const r = await runCli(["run", "--repo", dir, "--base-dir", BASE, "--quiet", "--no-cache"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("NEW assertion split-refund/D:sums-to-total");
  });
});

describe("an agent that only errors", () => {
  it("yields verdict error (exit 3), never a pass, with the errors counted", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sg-err-"));
    const cfg = join(dir, "cfg.yml");
    writeFileSync(
      cfg,
      `agent:\n  adapter: command\n  command: ${JSON.stringify(`${process.execPath} -e "process.stderr.write('API Error: 500 overloaded'); process.exit(1)"`)}\ntrials: 2\ntriggerRuns: 1\nverdict:\n  maxConfirmationTrials: 0\n`,
    );
    const out = join(dir, "r.json");
    const r = await runCli([
      "run",
      "--repo",
      HEAD,
      "--base-dir",
      BASE,
      "--config",
      cfg,
      "--json",
      out,
      "--quiet",
      "--no-cache",
      "--skills",
      "split-cents",
    ]);
    expect(r.code).toBe(3);
    const report = JSON.parse(readFileSync(out, "utf8")) as Report;
    expect(report.verdict).toBe("error");
    const split = report.skills.find((s) => s.name === "split-cents")!;
    expect(split.errors[0]).toMatchObject({ kind: "crash" });
    expect(split.errors[0]!.message).toContain("API Error: 500");
    expect(split.discriminator!.skill.passRate.units).toBe(0);
  });
});

describe("suite weakening in the same PR", () => {
  it("flags a deleted discriminator of the edited skill as a blocking suite-weakened root on the suite", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sg-weak-"));
    cpSync(HEAD, dir, { recursive: true });
    const file = join(dir, ".agent/evals/split-cents/assertions/split-refund.yaml");
    // drop the D:no-rounded-up discriminator (lines 6-8 of the base file)
    const text = readFileSync(file, "utf8").replace(/- id: D:no-rounded-up\n(?: {2}.*\n)+/, "");
    writeFileSync(file, text);
    const out = join(dir, "r.json");
    const r = await runCli([
      "run",
      "--repo",
      dir,
      "--base-dir",
      BASE,
      "--json",
      out,
      "--quiet",
      "--no-cache",
    ]);
    expect(r.code).toBe(1);
    const report = JSON.parse(readFileSync(out, "utf8")) as Report;
    const weak = report.newRoots.filter((x) => x.kind === "suite-weakened");
    expect(weak.length).toBeGreaterThan(0);
    expect(weak[0]!.file).toMatch(/^\.agent\/evals\/split-cents\//); // on the suite: the surviving case's line
    expect(weak[0]!.message).toContain("D:no-rounded-up");
    expect(weak[0]!.blocking).toBe(true);
    // an explicit, reported override accepts it
    const r2 = await runCli([
      "run",
      "--repo",
      dir,
      "--base-dir",
      BASE,
      "--json",
      out,
      "--quiet",
      "--no-cache",
      "--allow-weakening",
    ]);
    const report2 = JSON.parse(readFileSync(out, "utf8")) as Report;
    const accepted = report2.skills.flatMap((s) => s.roots).filter((x) => x.kind === "suite-weakened");
    expect(accepted.every((x) => !x.blocking && /--allow-weakening/.test(x.message))).toBe(true);
    expect(r2.code).toBe(1); // still failing for its real regressions
  });
});
