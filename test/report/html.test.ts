import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Report, TrialTranscript } from "../../src/model/report.js";
import { renderHtml, SECTIONS } from "../../src/report/html/index.js";
import { makeReport, makeRoot, makeSkill } from "../github/fixtures.js";
import { storeOf } from "../support/html-store.js";

const HOSTILE = `</script><script>alert(1)</script><img src=x onerror="alert(2)"> \` ' " &amp; \u2028`;

function transcript(over: Partial<TrialTranscript> = {}): TrialTranscript {
  return {
    id: "head/skill/split-1000-3/0",
    arm: "head",
    mode: "skill",
    caseId: "split-1000-3",
    trial: 0,
    prompt: "Split 1000 cents among 3.",
    skillsActivated: ["split-cents"],
    toolCalls: [{ name: "Write", input: '{"file_path":"src/split.ts"}', output: "ok", turn: 0 }],
    output: "333 333 333",
    files: [{ path: "src/split.ts", content: "export const splitCents = () => [333, 333, 333];" }],
    checks: [{ checkId: "split-1000-3/D:no-lost-cent", status: "fail", message: "saw 333" }],
    durationMs: 12,
    costUsd: 0,
    detail: true,
    ...over,
  };
}

/** A report with a blocking root, a pre-existing one, transcripts of both arms and the baseline. */
function reportWithTranscripts(over: { output?: string; name?: string } = {}): Report {
  const root = makeRoot({ threshold: 0.0069, pValue: 0.004, cascaded: ["split-1000-3/split-conserves"] });
  const old = makeRoot({
    id: "split-1000-3/mentions",
    status: "pre-existing",
    blocking: false,
    title: "mentions fails",
  });
  const skill = makeSkill({
    ...(over.name ? { name: over.name } : {}),
    roots: [root, old],
    transcripts: [
      transcript({ output: over.output ?? "333 333 333" }),
      transcript({
        id: "base/skill/split-1000-3/0",
        arm: "base",
        output: "334 333 333",
        checks: [{ checkId: root.id, status: "pass", message: "ok" }],
      }),
      transcript({
        id: "head/baseline/split-1000-3/0",
        mode: "baseline",
        skillsActivated: [],
        output: "333 each",
      }),
    ],
    evidence: {
      firstBatch: { perCase: 1, triggerRuns: 1 },
      head: [
        {
          checkId: root.id,
          skill: "split-cents",
          caseId: "split-1000-3",
          assertionId: "D:no-lost-cent",
          mode: "skill",
          trial: 0,
          status: "fail",
          discriminator: true,
          message: "saw 333",
          dependsOn: [],
          loc: { file: root.file, line: root.line, column: 1 },
        },
        {
          checkId: "split-1000-3/split-conserves",
          skill: "split-cents",
          caseId: "split-1000-3",
          assertionId: "split-conserves",
          mode: "skill",
          trial: 0,
          status: "skipped",
          discriminator: false,
          message: "dependency failed",
          dependsOn: [root.id],
          loc: { file: root.file, line: 12, column: 5 },
        },
      ],
      base: [
        {
          checkId: root.id,
          skill: "split-cents",
          caseId: "split-1000-3",
          assertionId: "D:no-lost-cent",
          mode: "skill",
          trial: 0,
          status: "pass",
          discriminator: true,
          message: "ok",
          dependsOn: [],
          loc: { file: root.file, line: root.line, column: 1 },
        },
      ],
    },
    robustness: {
      dimensions: [
        {
          id: "hallucination",
          name: "Hallucination rate",
          measured: true,
          score: 100,
          passed: 3,
          total: 3,
          basis: "the agent's code ran without invented imports, exports or arities",
        },
        {
          id: "error-recovery",
          name: "Error recovery",
          measured: false,
          basis: "not measured: needs multi-round fix attempts",
        },
      ],
      selected: ["hallucination", "error-recovery"],
      partial: { measured: 1, of: 2 },
      label: "partial, 1 of 2",
      criticalFailures: [],
      topFailurePatterns: [],
    },
  });
  return makeReport({ skills: [skill] });
}

const scripts = (html: string) => html.match(/<script\b/gi) ?? [];

describe("the HTML review report", () => {
  it("is one self-contained page: its own style and script only, allowed by hash, nothing to fetch", () => {
    const html = renderHtml(reportWithTranscripts());
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/
      .exec(html)![1]!
      .replace(/&#39;/g, "'");
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const hash = (s: string) => `'sha256-${createHash("sha256").update(s).digest("base64")}'`;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`style-src ${hash(style)}`);
    expect(csp).toContain(`script-src ${hash(script)}`);
    expect(html).not.toMatch(/<(?:link|img|iframe|object|embed|audio|video)\b|\ssrc=/i);
    expect(html).not.toMatch(/@import|url\(/);
  });

  it("escapes everything from the report: an output or a skill name cannot open markup or a script", () => {
    const html = renderHtml(reportWithTranscripts({ output: HOSTILE, name: `<b>${HOSTILE}` }));
    expect(scripts(html)).toHaveLength(2); // the transcript store and the page's own script
    expect(html).not.toMatch(/<img|<b>/i);
    expect(html).toContain("&lt;/script&gt;&lt;script&gt;alert(1)");
    // the lazy bodies wait compressed in a data block (base64: no `<` to end it) and hold the escaped text
    const store = storeOf(html);
    const bodies = Object.values(store).join("");
    expect(bodies).toContain(
      "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&quot;alert(2)&quot;&gt;",
    );
    expect(bodies).not.toMatch(/<img|<\/script/i);
  });

  it("puts the verdict and the blocking roots first, with the exact test and the root's location", () => {
    const html = renderHtml(reportWithTranscripts(), { blobBase: "https://github.com/o/r/blob/abc123" });
    const sections = [...html.matchAll(/<section id="([^"]+)"/g)].map((m) => m[1]);
    expect(sections.slice(0, 2)).toEqual(["verdict", "roots"]);
    const firstRoot = /<article class="root fi blocking"[\s\S]*?<\/article>/.exec(html)![0];
    expect(html.indexOf(firstRoot)).toBeLessThan(html.indexOf('class="root fi"'));
    expect(firstRoot).toContain(
      "head 4/5 failed vs base 0/5 failed, one-sided Fisher p = 0.0040 ≤ threshold 0.0069",
    );
    expect(firstRoot).toContain(
      'href="https://github.com/o/r/blob/abc123/.agent/evals/split-cents/prompts/split-1000-3.yaml#L9"',
    );
    // its cascade, and its trials side by side: the failing head trial beside the passing base, skill beside baseline
    expect(firstRoot).toContain("Cascade: 1 check(s)");
    expect(firstRoot).toMatch(
      /Head: fails this check[\s\S]*Base: passes this check[\s\S]*Baseline, without the skill: fails this check/,
    );
    // The head trial once, beside the base trial and the baseline.
    expect(firstRoot.match(/class="slot"/g)).toHaveLength(3);
  });

  it("shows unmeasured robustness dimensions as unmeasured, never as a score", () => {
    const html = renderHtml(reportWithTranscripts());
    const row = /<tr class="unmeasured">[\s\S]*?<\/tr>/.exec(html)![0];
    expect(row).toContain("Error recovery");
    expect(row).toContain("<td>unmeasured</td>");
    expect(html).toContain("partial, 1 of 2; 1 of 2 dimensions measured, the others unmeasured, not zero");
  });

  it("links files at the head commit, into the local checkout, or not at all", () => {
    const local = renderHtml(reportWithTranscripts());
    expect(local).toContain('href="file:///tmp/repo/.agent/evals/split-cents/prompts/split-1000-3.yaml"');
    const relative = renderHtml({ ...reportWithTranscripts(), repo: "repo" });
    expect(relative).toContain(
      '<code class="loc">.agent/evals/split-cents/prompts/split-1000-3.yaml:9</code>',
    );
    const escaping = makeReport({ skills: [makeSkill({ roots: [makeRoot({ file: "../../etc/passwd" })] })] });
    expect(renderHtml(escaping, { blobBase: "https://github.com/o/r/blob/x" })).not.toContain("etc/passwd#");
  });

  it("leaves out the sections a report has nothing for; every section has its own id", () => {
    const ids = SECTIONS.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    const html = renderHtml(makeReport());
    expect(html).not.toContain('<section id="trigger"');
    expect(html).not.toContain('<section id="trials"');
    expect(html).toContain('<section id="isolation"');
  });
});
