/**
 * The messages of the schema checks, pinned for a set of bad files of every shape the schemas check (config,
 * SKILL.md frontmatter, meta.json, cases, assertions, assertion files, trigger-eval.json, waza's trigger tests):
 * file:line:column, severity, code and wording. The schemas are derived from the types (scripts/shape-schemas.mjs);
 * this keeps what a user reads the same whatever the schemas are made from.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { assertionLookup } from "../../src/detect/assertion-types.js";
import { discoverRepository } from "../../src/detect/discover.js";
import "../../src/grade/assertions/index.js";
import * as registry from "../../src/grade/assertions/registry.js";
import type { Diagnostic } from "../../src/model/index.js";
import { readConfig } from "../../src/settings/policy.js";
import { writeRepo } from "../support/repo-files.js";

const line = (d: Diagnostic) => `${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.code}: ${d.message}`;

/** Bad `.skillgate.yml` files, each read on its own. */
const CONFIGS: Record<string, string> = {
  "top.yml": [
    "trails: 3",
    "trials: 0",
    "triggerRuns: 2.5",
    'concurrency: "4"',
    "timeoutSeconds: 0",
    "profile: loose",
    "targets: [codex, codex, vscode]",
    'env: ["A*", 3, ok_NAME]',
    "requireSuite: no-thanks",
    "gates: {contrast: 3}",
  ].join("\n"),
  "nested.yml": [
    "agent: {adapter: claude-code, comand: claude, env: [OK, BAD-NAME], options: 3}",
    "judge: claude",
    "verdict: {alpha: 0.7, inconclusive: maybe, baseDepth: -1, maxConfirmationTrials: 1.5, headOnly: 3, extra: 1}",
    "budget: {maxUsd: -1, maxTokens: 1.5, maxAgentCalls: x}",
    'security: {allow: {hosts: ["bad host", "*.ok.example"], commands: [""], paths: []}}',
    "skills: {globs: [], include: [''], exclud: []}",
    "thresholds: {triggerRecall: 2, discriminatorLift: -2, recal: 1}",
    "onDemand: {unrequested: 3, label: ''}",
    "competitors: {maxPrompts: -1}",
    "routing: {casePrompts: 1000001}",
    'cache: {enabled: "yes", dir: ""}',
    "isolation: {allowWeaker: 1}",
    "override: {label: ''}",
  ].join("\n"),
  "cells.yml": [
    "agents:",
    "  - {model: x}",
    "  - {name: Bad Name, adapter: replay, colour: red, required: maybe}",
    "  - {name: ok, adapter: ''}",
  ].join("\n"),
  "empty-cells.yml": "agents: []\n",
  "many-cells.yml": `agents:\n${Array.from({ length: 17 }, (_, i) => `  - {name: c${i}, adapter: replay}`).join("\n")}\n`,
  "placeholder.yml": "agent:\n  TODO-adapter: x\n",
  "list.yml": "- agent\n",
  "scalar.yml": "3\n",
};

const SKILL = (name: string, extra = "") =>
  `---\nname: ${name}\ndescription: Does ${name} things.\n${extra}---\nBody\n`;

/** Skills with bad frontmatter and suites with bad files, discovered together. */
const REPO: Record<string, string> = {
  "skills/fm-a/SKILL.md": "---\nname: 3\nmetadata: 5\nallowed-tools: ['']\nlicense: [a]\n---\nBody\n",
  "skills/fm-b/SKILL.md": SKILL(
    "fm-b",
    "allowed-tools: 3\ncompatibility: {x: 1}\ncolour: red\nwhen_to_use: x\n",
  ),
  "skills/meta/SKILL.md": SKILL("meta"),
  "skills/meta/evals/meta.json": JSON.stringify(
    {
      skillVersion: true,
      trials: "three",
      thresholds: { triggerRecall: 1.5, discriminatorLift: -3, recal: 1 },
      oracel: "x",
      vars: 3,
      constraints: [1],
      robustness: { dimensions: [], weights: { hallucination: -1, bogus: 1 } },
    },
    null,
    2,
  ),
  "skills/meta2/SKILL.md": SKILL("meta2"),
  "skills/meta2/evals/meta.json": JSON.stringify(
    {
      oracle: { command: "", timeoutSeconds: 0, extra: 1 },
      trials: 101,
      robustness: { dimensions: ["hallucination", "hallucination", "bogus"], extra: 1 },
    },
    null,
    2,
  ),
  "skills/meta3/SKILL.md": SKILL("meta3"),
  "skills/meta3/evals/meta.json": JSON.stringify({ oracle: 3, trials: 2.5 }, null, 2),
  "skills/cases/SKILL.md": SKILL("cases"),
  "skills/cases/evals/prompts/bad-id.yaml": "id: 'a b'\nprompt: ''\nfiles: [3, {from: a, too: b}, {to: b}]\n",
  "skills/cases/evals/prompts/probe.yaml": [
    "id: probe",
    "prompt: Do it",
    "dimension: bogus",
    "expect: maybe",
    "tier: 101",
    "reformulationOf: ''",
    "oracle: {command: x, timeoutSeconds: -1}",
    "vars: [1]",
  ].join("\n"),
  "skills/cases/evals/prompts/tier.yaml": "id: tier\nprompt: Do it\ntier: 1.5\nTODO-assertions: x\n",
  "skills/cases/evals/prompts/missing.yaml": "description: no id, no prompt\nasertions: []\n",
  "skills/cases/evals/prompts/checks.yaml": [
    "id: checks",
    "prompt: Do it",
    "assertions:",
    "  - 3",
    "  - {id: 'a b', type: contains, value: x}",
    "  - {type: ''}",
    "  - {id: x1, type: contains, value: y, depends_on: [''], extract: words, level: outcomes, rubric: 3, discriminator: 'yes'}",
    "  - {id: x2, type: contains, valeu: y}",
    "  - {id: x3, type: contains, TODO-value: y}",
    "  - {id: x4, type: contains, value: y, depends_on: 3, condition: 1, description: [a]}",
  ].join("\n"),
  "skills/cases/evals/prompts/af.yaml": "id: af\nprompt: Do it\n",
  "skills/cases/evals/assertions/af.json": JSON.stringify({ asserts: [], $schema: "x" }, null, 2),
  "skills/cases/evals/prompts/af2.yaml": "id: af2\nprompt: Do it\n",
  "skills/cases/evals/assertions/af2.yaml": "3\n",
  "skills/cases/evals/prompts/af3.yaml": "id: af3\nprompt: Do it\n",
  "skills/cases/evals/assertions/af3.yaml": "assertions: [3, {id: z, type: contains, value: q}]\n",
  "skills/trig/SKILL.md": SKILL("trig"),
  "skills/trig/evals/meta.json": "{}\n",
  "skills/trig/evals/trigger-eval.json": JSON.stringify(
    { shouldFire: [3, { prompt: "", confidence: "low", extra: 1 }, "ok"], extra: 1 },
    null,
    2,
  ),
  "skills/waza-a/SKILL.md": SKILL("waza-a"),
  "skills/waza-a/evals/trigger_tests.yaml": "skill: waza-a\n",
  "skills/waza-b/SKILL.md": SKILL("waza-b"),
  "skills/waza-b/evals/trigger_tests.yaml": [
    "skill: 3",
    "should_trigger_prompts: [3, {prompt: '', confidence: low, category: c}, {reason: r}]",
    "should_not_trigger_prompts: x",
  ].join("\n"),
};

describe("schema messages", () => {
  it("of bad .skillgate.yml files stay as they are", async () => {
    const dir = writeRepo(CONFIGS, "sg-shape-config-");
    const out = Object.keys(CONFIGS).flatMap((f) =>
      readConfig({ kind: "dir", dir }, f).diagnostics.map(line),
    );
    await expect(`${out.join("\n")}\n`).toMatchFileSnapshot("__snapshots__/shape-messages.config.txt");
  });

  it("of bad frontmatter and suite files stay as they are", async () => {
    const dir = writeRepo(REPO, "sg-shape-suite-");
    for (const profile of ["claude-code", "strict"] as const) {
      const d = discoverRepository(dir, { profile, assertionTypes: assertionLookup(registry) });
      const out = d.diagnostics.map(line).map((l) => l.replace(join(dir, "/"), ""));
      await expect(`${out.join("\n")}\n`).toMatchFileSnapshot(`__snapshots__/shape-messages.${profile}.txt`);
    }
  });
});
