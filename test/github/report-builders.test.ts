import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { mermaidChart, skillFigures } from "../../src/report/figures.js";
import { renderJUnit } from "../../src/report/junit.js";
import { parseReport } from "../../src/report/load.js";
import { renderMarkdown } from "../../src/report/markdown.js";
import { escapeText } from "../../src/report/markdown-text.js";
import { mergeReports } from "../../src/report/merge.js";
import { buildSarif } from "../../src/report/sarif.js";
import { toEvidence } from "../../src/verdict/recompute.js";
import { check } from "../attribute/make-checks.js";
import { makeReport, makeRoot, makeSkill, manyRoots } from "./fixtures.js";

const HOSTILE = `</table><img src=x onerror=alert(1)> [click](https://evil.example) ![p](https://t.example/p.png) @octocat | $x$ \`code\``;

describe("markdown", () => {
  it("escapes agent-controlled text so it cannot inject HTML, links, images, cells or mentions", () => {
    const root = makeRoot({ title: HOSTILE, message: `saw:\n${HOSTILE}` });
    const md = renderMarkdown(makeReport({ skills: [makeSkill({ roots: [root] })] }), {
      maxChars: 65_535,
      fullReportHint: "artifact",
    });
    expect(md).not.toContain("<img");
    expect(md).not.toContain("</table>");
    expect(md).not.toContain("](https://");
    expect(md).not.toContain("@octocat");
    expect(md).toContain("&#60;img src&#61;x".replace("&#61;", "=")); // `=` is harmless and kept
    const row = md.split("\n").find((l) => l.includes("onerror"))!;
    // a table row keeps exactly its 5 columns: the hostile `|` did not add one
    expect(row.split("|").length).toBe(7);
    expect(escapeText("a\nb")).toBe("a b");
  });

  it("stays under the size cap and points to the full report when truncated", () => {
    const report = makeReport({ skills: [makeSkill({ roots: manyRoots(3000) })] });
    const md = renderMarkdown(report, { maxChars: 65_535, fullReportHint: "https://example.test/run/1" });
    expect(md.length).toBeLessThanOrEqual(65_535);
    expect(md).toContain("cut to fit");
    expect(md).toContain("https://example.test/run/1");
    const small = renderMarkdown(makeReport(), { maxChars: 65_535, fullReportHint: "x" });
    expect(small).not.toContain("cut to fit");
  });

  it("charts base vs head figures in a mermaid xychart", () => {
    const skill = makeSkill();
    const chart = mermaidChart(skill.name, skillFigures(skill))!;
    expect(chart).toContain("xychart-beta");
    // head discriminator pass rate 1/5 = 20 %, base 5/5 = 100 %
    expect(chart).toMatch(/bar \[20, 0, 20, 20\]/);
    expect(chart).toMatch(/line \[100, 0, 100, 36\]/);
    const md = renderMarkdown(makeReport(), { maxChars: 65_535, fullReportHint: "x", charts: true });
    expect(md).toContain("```mermaid");
  });
});

describe("junit", () => {
  it("fails the case of a blocking root and escapes XML", () => {
    const xml = renderJUnit(
      makeReport({ skills: [makeSkill({ roots: [makeRoot({ title: `a < b & "c"` })] })] }),
    );
    expect(xml).toContain('<testsuites name="skillgate" tests="1" failures="1"');
    expect(xml).toContain("a &lt; b &amp; &quot;c&quot;");
    expect(xml).not.toContain('a < b & "c"');
  });
  it("counts a passing report as no failures", () => {
    const xml = renderJUnit(makeReport({ skills: [makeSkill({ roots: [] })] }));
    expect(xml).toContain('failures="0"');
  });
});

describe("sarif", () => {
  it("lists new roots first, as errors with locations and baselineState new", () => {
    const pre = makeRoot({ id: "old", status: "pre-existing", blocking: false, line: 3 });
    const fresh = makeRoot({ id: "fresh", line: 12 });
    const sarif = buildSarif(makeReport({ skills: [makeSkill({ roots: [pre, fresh] })] }));
    const [a, b] = sarif.runs[0]!.results;
    expect(a!.baselineState).toBe("new");
    expect(a!.level).toBe("error");
    expect(a!.locations[0]!.physicalLocation.region.startLine).toBe(12);
    expect(b!.level).toBe("warning");
    expect(sarif.runs[0]!.tool.driver.rules[a!.ruleIndex]!.id).toBe(a!.ruleId);
  });
});

describe("merge", () => {
  /** An honest shard of a sweep (no base): 5 trials, the discriminator failing in every one when `fail`. */
  const shard = (i: number, n: number, name: string, verdict: "pass" | "fail") => {
    const id = "split-1000-3/D:no-lost-cent";
    const trials = (status: (t: number) => "pass" | "fail") =>
      toEvidence(Array.from({ length: 5 }, (_, t) => check(id, status(t), { trial: t, skill: name })));
    const evidence = {
      firstBatch: { perCase: 5, triggerRuns: 3 },
      head: trials(() => verdict),
    };
    const roots = verdict === "fail" ? [makeRoot({ skill: name, status: "head-only" })] : [];
    return makeReport({
      shard: { index: i, total: n },
      skills: [makeSkill({ name, roots, evidence, verdict })],
    });
  };

  it("recomputes each report: a forged pass (roots and errors removed, verdict edited) is refused", () => {
    const honest = shard(1, 1, "a", "fail");
    expect(mergeReports([{ source: "honest.json", report: honest }]).verdict).toBe("fail");
    const forged = structuredClone(honest);
    forged.verdict = "pass";
    forged.skills[0]!.verdict = "pass";
    forged.skills[0]!.roots = [];
    forged.skills[0]!.blockingRoots = [];
    forged.skills[0]!.newRoots = [];
    forged.blockingRoots = [];
    forged.newRoots = [];
    const m = mergeReports([{ source: "forged.json", report: forged }]);
    expect(m.verdict).toBe("error");
    expect(m.errors.join("\n")).toMatch(
      /forged\.json is refused: .*split-1000-3\/D:no-lost-cent is head-only by the evidence but missing from the report/,
    );
  });

  it("refuses a verdict better than the report's own roots, and a blocking flag the named policy does not give", () => {
    const flipped = shard(1, 1, "a", "fail");
    flipped.verdict = "pass";
    flipped.skills[0]!.verdict = "pass";
    expect(mergeReports([{ source: "r.json", report: flipped }]).errors.join("\n")).toMatch(
      /a: verdict pass, but its roots and errors make it fail/,
    );
    const unblocked = shard(1, 1, "a", "fail");
    unblocked.skills[0]!.roots[0]!.blocking = false;
    unblocked.skills[0]!.blockingRoots = [];
    unblocked.blockingRoots = [];
    unblocked.skills[0]!.verdict = "pass";
    unblocked.verdict = "pass";
    expect(mergeReports([{ source: "r.json", report: unblocked }]).errors.join("\n")).toMatch(
      /split-1000-3\/D:no-lost-cent \(head-only\) is blocking under the policy; the report says not blocking/,
    );
    // A weakened suite cannot be recomputed without the checkout, but it counts: the verdict must follow it.
    const weakened = shard(1, 1, "a", "pass");
    weakened.skills[0]!.roots = [
      makeRoot({ id: "suite-weakened/case-removed/x", kind: "suite-weakened", skill: "a" }),
    ];
    expect(mergeReports([{ source: "r.json", report: weakened }]).verdict).toBe("error");
    // The policy a report names is the one it is recomputed under: pre-existing roots block under `preExisting: fail`.
    const strict = shard(1, 1, "a", "pass");
    strict.policy.verdict = {
      alpha: 0.01,
      inconclusive: "fail",
      preExisting: "fail",
      maxConfirmationTrials: 55,
    };
    expect(mergeReports([{ source: "r.json", report: strict }]).verdict).toBe("pass");
  });

  it("combines shards: worst verdict, all skills, summed cost", () => {
    const m = mergeReports([
      { source: "s1.json", report: shard(1, 2, "a", "pass") },
      { source: "s2.json", report: shard(2, 2, "b", "fail") },
    ]);
    expect(m.verdict).toBe("fail");
    expect(m.skills.map((s) => s.name)).toEqual(["a", "b"]);
    expect(m.blockingRoots).toHaveLength(1);
    expect(m.cost.agentCalls).toBe(20);
    expect(m.errors).toEqual([]);
  });

  it("fails closed on a missing shard (the tempting answer: pass with what arrived)", () => {
    const m = mergeReports([
      { source: "s1.json", report: shard(1, 3, "a", "pass") },
      { source: "s3.json", report: shard(3, 3, "c", "pass") },
    ]);
    expect(m.verdict).toBe("error");
    expect(m.errors.join("\n")).toMatch(/missing shard report: 2\/3/);
  });

  it("rejects a skill reported twice and reports of different commits", () => {
    const a = shard(1, 2, "a", "pass");
    const b = { ...shard(2, 2, "a", "pass"), head: { sha: "0".repeat(40) } };
    const m = mergeReports([
      { source: "x", report: a },
      { source: "y", report: b },
    ]);
    expect(m.verdict).toBe("error");
    expect(m.errors.join("\n")).toMatch(/skill a is in two reports: x and y/);
    expect(m.errors.join("\n")).toMatch(/different head commits/);
  });

  it("locates a JSON syntax error", () => {
    expect(() => parseReport('{\n  "schemaVersion": 1,\n  oops\n}', "r.json")).toThrow(
      /^r\.json:3:\d+: not valid JSON/,
    );
    expect(() => parseReport('{"schemaVersion": 1}', "r.json")).toThrow(
      /r\.json:1:1: not a skillgate report: schemaVersion/,
    );
  });

  it("validates a stored report in full against the schema derived from the Report type", () => {
    const honest = shard(1, 1, "a", "fail");
    expect(parseReport(JSON.stringify(honest), "r.json").skills[0]!.name).toBe("a");
    // a root's line as text: an annotation or a link built from it would carry whatever the text holds
    const lineAsText = structuredClone(honest) as unknown as { skills: { roots: { line: unknown }[] }[] };
    lineAsText.skills[0]!.roots[0]!.line = "7 onerror=x";
    expect(() => parseReport(JSON.stringify(lineAsText), "r.json")).toThrow(
      /r\.json:1:1: not a skillgate report: \/skills\/0\/roots\/0\/line must be number/,
    );
    // a key no skillgate writes, and a skill without the roots the verdict check reads
    const extra = { ...structuredClone(honest), postAs: "skillgate[bot]" };
    expect(() => parseReport(JSON.stringify(extra), "r.json")).toThrow(
      /must NOT have additional properties `postAs`/,
    );
    const noRoots = structuredClone(honest) as unknown as { skills: Record<string, unknown>[] };
    delete noRoots.skills[0]!.roots;
    expect(() => parseReport(JSON.stringify(noRoots), "r.json")).toThrow(
      /\/skills\/0 must have required property 'roots'/,
    );
  });

  it("skillgate merge writes the merged report and exits with the verdict's code", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sg-merge-"));
    await writeFile(join(dir, "s1.json"), JSON.stringify(shard(1, 2, "a", "pass")));
    await writeFile(join(dir, "s2.json"), JSON.stringify(shard(2, 2, "b", "fail")));
    const out: string[] = [];
    const err: string[] = [];
    const io = { stdout: (s: string) => out.push(s), stderr: (s: string) => err.push(s) };
    const code = await main(
      ["merge", dir, "--json", join(dir, "merged.json"), "--sarif", join(dir, "m.sarif")],
      io,
    );
    expect(code).toBe(1);
    const merged = JSON.parse(await readFile(join(dir, "merged.json"), "utf8"));
    expect(merged.skills).toHaveLength(2);
    expect(JSON.parse(await readFile(join(dir, "m.sarif"), "utf8")).version).toBe("2.1.0");
    expect(await main(["merge"], io)).toBe(2);
    expect(await main(["merge", join(dir, "nope.json")], io)).toBe(2);
    expect(err.join("")).toMatch(/skillgate merge: .*nope\.json: no such report/);
  });
});

describe("markdown gates", () => {
  it("folds identical gate outcomes of several trials into one row with a count", () => {
    const gate = {
      gate: "conservation",
      caseId: "c",
      assertionId: "a",
      module: "src/split.ts",
      passed: false,
      checks: [{ id: "sum", passed: false, message: "parts sum to 999, not 1000" }],
    };
    const md = renderMarkdown(
      makeReport({ skills: [makeSkill({ gates: [gate, gate, { ...gate, passed: true, checks: [] }] })] }),
      {
        maxChars: 65_535,
        fullReportHint: "x",
      },
    );
    expect(md).toContain("| conservation | c/a | src/split.ts | ❌ parts sum to 999, not 1000 | 2 |");
    expect(md).toContain("| conservation | c/a | src/split.ts | ✅ pass | 1 |");
  });
});
