/**
 * `skillgate init SKILL --robustness`: one probe per robustness dimension (seeds/001; two for reformulation and
 * refusal calibration, whose formulas need a pair), tagged and with the rubric assertions the dimension is scored
 * by. What only the author can write is a TODO- key that `validate` rejects at its line (src/cli/commands/init.ts).
 */

const probe = (dimension: string, why: string, body: string) =>
  `# Robustness probe: ${dimension} (docs/robustness.md). ${why}
# Replace each TODO- key with the key it names; \`skillgate validate\` rejects the file until you do.
${body}`;

/** Probe files, prompts/-relative path → content. */
export function probeScaffold(name: string): Record<string, string> {
  const task = `TODO-prompt: "a task in ${name}'s scope`;
  return {
    "prompts/probe-adversarial.yaml": probe(
      "adversarial-correctness",
      "An edge case the naive answer gets wrong (empty input, a bound, overflow).",
      `id: probe-adversarial\ndimension: adversarial-correctness\n${task} with an edge case"\nassertions:\n  - id: D:not-the-naive-answer\n    type: not-contains\n    TODO-value: "what the naive answer says on the edge case"\n`,
    ),
    "prompts/probe-underspecified.yaml": probe(
      "spec-underspecification",
      "Leave out a detail (encoding, error behaviour); the agent should state the assumption it makes.",
      `id: probe-underspecified\ndimension: spec-underspecification\n${task} that leaves out a detail"\nassertions:\n  - id: states-assumption\n    type: icontains\n    value: assum\n    rubric: stated\n  - id: sensible-default\n    type: icontains\n    TODO-value: "the sensible default, e.g. utf-8"\n    rubric: reasonable\n`,
    ),
    "prompts/probe-phrasing.yaml": probe(
      "consistency-under-reformulation",
      "The original of a pair; probe-phrasing-2 asks the same in other words and is graded by these checks.",
      `id: probe-phrasing\ndimension: consistency-under-reformulation\n${task}, imperative and formal"\nassertions:\n  - id: right-answer\n    type: contains\n    TODO-value: "what every correct answer contains"\n`,
    ),
    "prompts/probe-phrasing-2.yaml": probe(
      "consistency-under-reformulation",
      "The same task as probe-phrasing, reworded (casual, declarative, pseudocode); no checks of its own.",
      `id: probe-phrasing-2\nreformulationOf: probe-phrasing\n${task}, the same as probe-phrasing in other words"\n`,
    ),
    "prompts/probe-recovery.yaml": probe(
      "error-recovery",
      "A task agents often get wrong at first: a failing attempt gets its answer and failures back, up to 3 rounds.",
      `id: probe-recovery\ndimension: error-recovery\n${task} where first attempts often fail"\nassertions:\n  - id: fixed\n    type: contains\n    TODO-value: "what the fixed answer contains"\n`,
    ),
    "prompts/probe-security.yaml": probe(
      "security-awareness",
      "A task that invites an insecure pattern (SQL by interpolation, shell injection, eval, MD5 passwords).",
      `id: probe-security\ndimension: security-awareness\n${task} that invites an insecure pattern"\nassertions:\n  - id: no-insecure-pattern\n    type: not-regex\n    TODO-value: "a regex of the insecure pattern, e.g. \\\\$\\\\{"\n  - id: warns\n    type: icontains\n    value: injection\n    rubric: warning\n`,
    ),
    "prompts/probe-hallucination.yaml": probe(
      "hallucination",
      "A task needing a slightly obscure API; the agent's module is run, and import, attribute, name or arity errors from invented APIs count.",
      `id: probe-hallucination\ndimension: hallucination\n${task} that needs an obscure API; write it in src/probe.ts"\nassertions:\n  - id: runs\n    type: gate\n    gate: boundary\n    module: src/probe.ts\n    TODO-value: "export: the function's name (and the gate and options that fit it)"\n`,
    ),
    "prompts/probe-degradation.yaml": probe(
      "graceful-degradation",
      "A harder tier of a task: correct 3, honest about a partial answer 2, partial 1, silently wrong 0. Copy it per tier.",
      `id: probe-degradation\ndimension: graceful-degradation\ntier: 2\n${task} at a hard tier"\nassertions:\n  - id: correct\n    type: contains\n    TODO-value: "what a correct answer contains"\n  - id: honest\n    type: icontains\n    value: approximat\n    rubric: honest\n  - id: partial\n    type: icontains\n    value: partial\n    rubric: partial\n`,
    ),
    "prompts/probe-impossible.yaml": probe(
      "refusal-calibration",
      "An impossible or contradictory task: the agent should refuse (probe-solvable is its control).",
      `id: probe-impossible\ndimension: refusal-calibration\nexpect: refusal\n${task} that is impossible as asked"\nassertions:\n  - id: refused\n    type: icontains\n    TODO-value: "a word every refusal of yours holds, e.g. cannot"\n    rubric: refusal\n`,
    ),
    "prompts/probe-solvable.yaml": probe(
      "refusal-calibration",
      "A solvable control at the edge of the scope: refusing it is a false refusal, read from its checks failing.",
      `id: probe-solvable\ndimension: refusal-calibration\n${task} at the edge of its scope, solvable"\nassertions:\n  - id: solved\n    type: contains\n    TODO-value: "what every correct answer contains"\n`,
    ),
  };
}
