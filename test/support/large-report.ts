/**
 * A report of many trials in the shape a real run gives (the review page's scale test and bench): skills with
 * cases run with and without the skill at head and base, checks that depend on each other, new roots with their
 * cascades, and transcripts built by the report's own builder (its limits and detail budget apply).
 */

import { unitRate } from "../../src/grade/unit-rates.js";
import type {
  CheckResult,
  EvidenceCheck,
  Report,
  Root,
  SkillReport,
  TrialMode,
  TrialRecord,
  TrialRequest,
} from "../../src/model/index.js";
import {
  buildTranscripts,
  MAX_DETAIL_CHARS_PER_REPORT,
  type RanTrial,
} from "../../src/report/transcripts.js";
import { toEvidence } from "../../src/verdict/recompute.js";

const CHECKS = [
  "trial-ok",
  "mentions-total",
  "D:no-lost-cent",
  "split-conserves",
  "file-written",
  "no-float",
  "D:rounding",
  "tone",
];

/** Deterministic pseudo-random numbers (mulberry32), so two runs build the same report. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  "ka",
  "lo",
  "mi",
  "nu",
  "ce",
  "rt",
  "sp",
  "li",
  "to",
  "al",
  "re",
  "fu",
  "nd",
  "333",
  "334",
  "ts",
  "(",
  ")",
  "=",
  ";",
];

/** Text about as compressible as an agent's (random syllables and numbers, not a handful of repeated words). */
const words = (rnd: () => number, n: number) =>
  Array.from({ length: n }, () => {
    const len = 1 + Math.floor(rnd() * 4);
    let w = "";
    for (let i = 0; i < len; i++) w += SYLLABLES[Math.floor(rnd() * SYLLABLES.length)];
    return rnd() < 0.1 ? `${w}${Math.floor(rnd() * 100000)}` : w;
  }).join(" ");

export function largeReport(o: { trials: number; skills?: number; seed?: number }): Report {
  const rnd = random(o.seed ?? 1);
  const skillCount = o.skills ?? 10;
  const perSkill = Math.ceil(o.trials / skillCount);
  const budget = { chars: MAX_DETAIL_CHARS_PER_REPORT };
  const skills: SkillReport[] = [];
  for (let s = 0; s < skillCount; s++) {
    const name = `skill-${String(s).padStart(2, "0")}`;
    const ran: RanTrial[] = [];
    const evidence: Record<"head" | "base", EvidenceCheck[]> = { head: [], base: [] };
    const trialsPerCell = 10;
    const cases = Math.max(1, Math.round(perSkill / (4 * trialsPerCell)));
    for (let c = 0; c < cases; c++)
      for (const arm of ["head", "base"] as const)
        for (const mode of ["skill", "baseline"] as TrialMode[])
          for (let t = 0; t < trialsPerCell; t++) {
            const caseId = `case-${c}`;
            const request: TrialRequest = {
              key: `${name}/${arm}/${mode}/${caseId}/${t}`,
              skill: name,
              caseId,
              mode,
              trial: t,
              prompt: `Split ${1000 + c} cents among ${3 + (c % 5)} people. ${words(rnd, 40)}`,
              files: [],
              install: [],
              seed: t,
            };
            const failing = arm === "head" && mode === "skill" && c % 3 === 0 && rnd() < 0.8;
            const record: TrialRecord = {
              ...request,
              output: `Parts: ${failing ? "333 333 333" : "334 333 333"}\n${words(rnd, 250)}`,
              toolCalls: [
                { name: "Skill", input: { skill: name }, output: `Launching skill: ${name}`, turn: 0 },
                {
                  name: "Write",
                  input: { file_path: "src/split.ts", content: words(rnd, 60) },
                  output: "ok",
                  turn: 1,
                },
                { name: "Bash", input: { command: "npx tsc --noEmit" }, output: words(rnd, 50), turn: 2 },
              ],
              skillsActivated: mode === "skill" ? [name] : [],
              files: {
                "src/split.ts": `export function splitCents(total: number, n: number): number[] {\n${words(rnd, 200)}\n}\n`,
              },
              usage: { inputTokens: 2000, outputTokens: 400, costUsd: 0.004 },
              durationMs: 8000 + rnd() * 20000,
            };
            const checks: CheckResult[] = CHECKS.map((a, i) => {
              const root = a === "D:no-lost-cent";
              const fails = failing && (root || a === "split-conserves" || a === "D:rounding");
              return {
                checkId: `${caseId}/${a}`,
                skill: name,
                caseId,
                assertionId: a,
                mode,
                trial: t,
                status: fails ? (root ? "fail" : "skipped") : "pass",
                discriminator: a.startsWith("D:"),
                message: fails
                  ? `expected the first part not to be 333; saw 333 in "${words(rnd, 12)}"`
                  : `${a} holds`,
                dependsOn: i > 2 ? [`${caseId}/D:no-lost-cent`] : [],
                loc: { file: `.agent/evals/${name}/prompts/${caseId}.yaml`, line: 3 + i * 2, column: 5 },
              } as CheckResult;
            });
            ran.push({ arm, request, record, checks });
            evidence[arm].push(...toEvidence(checks));
          }
    const roots: Root[] = Array.from({ length: Math.ceil(cases / 3) }, (_, i) => {
      const caseId = `case-${i * 3}`;
      return {
        id: `${caseId}/D:no-lost-cent`,
        kind: "assertion",
        skill: name,
        status: "new",
        blocking: true,
        title: `New: Discriminator ${caseId}/D:no-lost-cent fails (8/10 trials at head, 0/10 at base)`,
        message: "expected the first part not to be 333; saw 333",
        head: { failed: 8, trials: 10 },
        base: { failed: 0, trials: 10 },
        pValue: 0.0001,
        threshold: 0.0005,
        cascaded: [`${caseId}/split-conserves`, `${caseId}/D:rounding`],
        file: `.agent/evals/${name}/prompts/${caseId}.yaml`,
        line: 7,
        column: 5,
      };
    });
    const r = (p: number, n: number) =>
      unitRate({ kind: "mean", unit: "case", units: [{ id: "c", passed: p * n, total: n }] });
    skills.push({
      name,
      path: `.claude/skills/${name}/SKILL.md`,
      change: "body",
      discriminator: {
        skill: {
          trials: ran.length / 4,
          errors: 0,
          passRate: r(0.8, 800),
          discriminatorPassRate: r(0.6, 200),
        },
        baseline: {
          trials: ran.length / 4,
          errors: 0,
          passRate: r(0.5, 800),
          discriminatorPassRate: r(0.2, 200),
        },
        lift: 0.3,
        discriminatorLift: 0.4,
        styleGuideNotGuardrail: false,
        assertions: [],
        cases: { skill: [], baseline: [] },
      },
      gates: [],
      evidence: { firstBatch: { perCase: trialsPerCell, triggerRuns: 3 }, ...evidence },
      transcripts: buildTranscripts(ran, roots, budget),
      roots,
      blockingRoots: roots,
      newRoots: roots,
      failedChecks: roots.length * 8,
      errors: [],
      verdict: "fail",
      reasons: [`${roots.length} new root failure(s)`],
      cost: { usd: ran.length * 0.002, agentCalls: ran.length / 2, cacheHits: 0, byMode: {} },
    });
  }
  const all = skills.flatMap((s) => s.roots);
  return {
    schemaVersion: 2,
    tool: { name: "skillgate", version: "0.1.0" },
    verdict: "fail",
    seed: o.seed ?? 1,
    startedAt: "2026-12-02T00:00:00.000Z",
    durationMs: 3_600_000,
    repo: "/tmp/large",
    head: { sha: "a".repeat(40) },
    base: { sha: "b".repeat(40) },
    agent: { adapter: "claude-code", identity: "claude-code@bench" },
    trials: 10,
    skills,
    policy: { origin: "base commit", roots: [] },
    blockingRoots: all,
    newRoots: all,
    diagnostics: [],
    stats: {
      failedChecks: all.length * 8,
      roots: all.length,
      meanFailedChecksPerTrial: 0.3,
      meanRootsPerTrial: 0.1,
    },
    cost: { usd: o.trials * 0.002, agentCalls: o.trials / 2, cacheHits: 0, inputTokens: 0, outputTokens: 0 },
    errors: [],
  };
}
