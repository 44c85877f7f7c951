/**
 * JSON Schemas (ajv) for every file type skillgate reads. Semantic checks that a schema can't express (name
 * equals folder, unknown assertion types, duplicate ids) live next to the loaders.
 */

const nonEmptyString = { type: "string", minLength: 1 } as const;
/** An environment variable's exact name: no `*` patterns (forwarding is by name, one at a time). */
const envName = {
  type: "string",
  pattern: "^[A-Za-z_][A-Za-z0-9_]*$",
  description: "an exact variable name (letters, digits and _; no `*` patterns)",
} as const;

/** Agent Skills spec frontmatter (agentskills.io). Lengths are checked in code so the profile can grade them. */
export const frontmatterSchema = {
  $id: "skillgate/frontmatter",
  type: "object",
  required: ["name", "description"],
  properties: {
    name: { type: "string" },
    description: { type: "string" },
    license: { type: "string" },
    compatibility: { type: "string" },
    // Non-string metadata values, a JSON string (OpenClaw's style) and a list of allowed tools are graded by
    // profile in skill-file.ts.
    metadata: { type: ["object", "string"] },
    "allowed-tools": {
      anyOf: [{ type: "string" }, { type: "array", items: { type: "string", minLength: 1 } }],
    },
  },
} as const;

export const PORTABLE_FRONTMATTER_KEYS = [
  "name",
  "description",
  "license",
  "compatibility",
  "metadata",
  "allowed-tools",
] as const;

/** Keys Claude Code understands beyond the portable six (ANCHORS.md § Agent Skills). */
export const CLAUDE_CODE_FRONTMATTER_KEYS = [
  "when_to_use",
  "argument-hint",
  "disable-model-invocation",
  "user-invocable",
  "paths",
  "model",
  "effort",
  "context",
  "agent",
  "hooks",
  "shell",
] as const;

const thresholds = {
  type: "object",
  additionalProperties: false,
  properties: {
    discriminatorPassRate: { type: "number", minimum: 0, maximum: 1 },
    discriminatorLift: { type: "number", minimum: -1, maximum: 1 },
    triggerPrecision: { type: "number", minimum: 0, maximum: 1 },
    triggerRecall: { type: "number", minimum: 0, maximum: 1 },
  },
} as const;

const versionLike = { type: ["string", "number"] } as const;

const ROBUSTNESS_DIMENSIONS = [
  "adversarial-correctness",
  "spec-underspecification",
  "consistency-under-reformulation",
  "error-recovery",
  "security-awareness",
  "hallucination",
  "graceful-degradation",
  "refusal-calibration",
] as const;
/** Shell words run sandboxed in the suite folder, printing one JSON object of variables. */
const oracleSchema = {
  anyOf: [
    nonEmptyString,
    {
      type: "object",
      required: ["command"],
      additionalProperties: false,
      properties: { command: nonEmptyString, timeoutSeconds: { type: "number", exclusiveMinimum: 0 } },
    },
  ],
} as const;

export const metaSchema = {
  $id: "skillgate/meta",
  type: "object",
  additionalProperties: false,
  properties: {
    $schema: { type: "string" },
    skillVersion: versionLike,
    suiteVersion: versionLike,
    lastRun: { type: "string" },
    trials: { type: "integer", minimum: 1, maximum: 100 },
    thresholds,
    oracle: oracleSchema,
    vars: { type: "object" },
    evalMode: { type: "string" },
    constraints: { type: "array", items: { type: "string" } },
    robustness: {
      type: "object",
      additionalProperties: false,
      properties: {
        dimensions: { type: "array", items: { enum: ROBUSTNESS_DIMENSIONS }, minItems: 1, uniqueItems: true },
        weights: {
          type: "object",
          additionalProperties: false,
          properties: Object.fromEntries(
            ROBUSTNESS_DIMENSIONS.map((d) => [d, { type: "number", minimum: 0 }]),
          ),
        },
      },
    },
  },
} as const;

/** Common fields of every assertion; type-specific params are checked with the type's own schema. */
export const assertionSchema = {
  $id: "skillgate/assertion",
  type: "object",
  required: ["id", "type"],
  properties: {
    id: { type: "string", minLength: 1, pattern: "^[^\\s/]+$" },
    type: nonEmptyString,
    discriminator: { type: "boolean" },
    depends_on: { anyOf: [nonEmptyString, { type: "array", items: nonEmptyString }] },
    condition: { type: "string" },
    extract: { type: "string", pattern: "^(text|first-number|last-line|code-block|json|json:.*)$" },
    level: { enum: ["outcome", "final-state", "process"] },
    description: { type: "string" },
    rubric: { enum: ["stated", "reasonable", "honest", "partial", "refusal", "warning"] },
  },
} as const;

const caseFiles = {
  type: "array",
  items: {
    anyOf: [
      nonEmptyString,
      {
        type: "object",
        required: ["from"],
        additionalProperties: false,
        properties: { from: nonEmptyString, to: nonEmptyString },
      },
    ],
  },
} as const;

export const caseSchema = {
  $id: "skillgate/case",
  type: "object",
  required: ["id", "prompt"],
  additionalProperties: false,
  properties: {
    $schema: { type: "string" },
    id: { type: "string", minLength: 1, pattern: "^[A-Za-z0-9][A-Za-z0-9._:-]*$" },
    prompt: nonEmptyString,
    description: { type: "string" },
    files: caseFiles,
    vars: { type: "object" },
    oracle: oracleSchema,
    assertions: { type: "array", items: { type: "object" } },
    dimension: { enum: ROBUSTNESS_DIMENSIONS },
    reformulationOf: { type: "string", minLength: 1 },
    expect: { enum: ["refusal", "solution"] },
    tier: { type: "integer", minimum: 0, maximum: 100 },
  },
} as const;

/** `assertions/<case-id>.{json,yaml}`: a list, or `{assertions: [...]}`. */
export const assertionFileSchema = {
  $id: "skillgate/assertion-file",
  anyOf: [
    { type: "array", items: { type: "object" } },
    {
      type: "object",
      required: ["assertions"],
      additionalProperties: false,
      properties: { $schema: { type: "string" }, assertions: { type: "array", items: { type: "object" } } },
    },
  ],
} as const;

const triggerQuery = {
  anyOf: [
    nonEmptyString,
    {
      type: "object",
      required: ["prompt"],
      additionalProperties: false,
      properties: {
        prompt: nonEmptyString,
        reason: { type: "string" },
        confidence: { enum: ["high", "medium"] },
      },
    },
  ],
} as const;

export const triggerEvalSchema = {
  $id: "skillgate/trigger-eval",
  type: "object",
  required: ["shouldFire", "shouldNotFire"],
  additionalProperties: false,
  properties: {
    $schema: { type: "string" },
    shouldFire: { type: "array", items: triggerQuery },
    shouldNotFire: { type: "array", items: triggerQuery },
  },
} as const;

/** waza's trigger prompts; keys it does not read (`category` …) are passed over, as its YAML decoder does. */
const wazaPrompt = {
  anyOf: [
    nonEmptyString,
    {
      type: "object",
      required: ["prompt"],
      properties: {
        prompt: nonEmptyString,
        reason: { type: "string" },
        confidence: { enum: ["high", "medium"] },
      },
    },
  ],
} as const;

/** microsoft/waza `trigger_tests.yaml`. */
export const wazaTriggerSchema = {
  $id: "skillgate/waza-trigger",
  type: "object",
  properties: {
    $schema: { type: "string" },
    skill: { type: "string" },
    should_trigger_prompts: { type: "array", items: wazaPrompt },
    should_not_trigger_prompts: { type: "array", items: wazaPrompt },
  },
  anyOf: [{ required: ["should_trigger_prompts"] }, { required: ["should_not_trigger_prompts"] }],
} as const;

const agentConfig = {
  type: "object",
  required: ["adapter"],
  additionalProperties: false,
  properties: {
    adapter: nonEmptyString,
    command: nonEmptyString,
    model: nonEmptyString,
    baseUrl: nonEmptyString,
    apiKeyEnv: nonEmptyString,
    env: { type: "array", items: envName },
    recordings: nonEmptyString,
    options: { type: "object" },
  },
} as const;

/** A cell of the agent matrix: an agent configuration with a name, whether it decides the verdict, its label. */
const agentCellConfig = {
  type: "object",
  required: ["name", "adapter"],
  additionalProperties: false,
  properties: {
    ...agentConfig.properties,
    name: { type: "string", pattern: "^[a-z0-9][a-z0-9._-]{0,62}$" },
    required: { type: "boolean" },
    label: nonEmptyString,
  },
} as const;

/** `.skillgate.yml`. */
export const configSchema = {
  $id: "skillgate/config",
  type: "object",
  additionalProperties: false,
  properties: {
    agent: agentConfig,
    agents: { type: "array", items: agentCellConfig, minItems: 1, maxItems: 16 },
    judge: agentConfig,
    skills: {
      type: "object",
      additionalProperties: false,
      properties: {
        globs: { type: "array", items: nonEmptyString, minItems: 1 },
        include: { type: "array", items: nonEmptyString },
        exclude: { type: "array", items: nonEmptyString },
      },
    },
    profile: { enum: ["strict", "claude-code"] },
    targets: {
      type: "array",
      items: { enum: ["claude-code", "codex", "copilot", "gemini", "claude-api", "gh-skill"] },
      uniqueItems: true,
    },
    trials: { type: "integer", minimum: 1, maximum: 100 },
    triggerRuns: { type: "integer", minimum: 1, maximum: 100 },
    concurrency: { type: "integer", minimum: 1, maximum: 256 },
    timeoutSeconds: { type: "number", exclusiveMinimum: 0 },
    budget: {
      type: "object",
      additionalProperties: false,
      properties: {
        maxUsd: { type: "number", minimum: 0 },
        maxTokens: { type: "integer", minimum: 0 },
        maxAgentCalls: { type: "integer", minimum: 0 },
      },
    },
    thresholds,
    verdict: {
      type: "object",
      additionalProperties: false,
      properties: {
        alpha: { type: "number", exclusiveMinimum: 0, maximum: 0.5 },
        inconclusive: { enum: ["fail", "pass"] },
        preExisting: { enum: ["report", "fail"] },
        maxConfirmationTrials: { type: "integer", minimum: 0, maximum: 200 },
        baseDepth: { type: "integer", minimum: 0, maximum: 200 },
        headOnly: { enum: ["fail", "report"] },
      },
    },
    gates: { type: "object", additionalProperties: { type: "object" } },
    override: {
      type: "object",
      additionalProperties: false,
      properties: { label: nonEmptyString },
    },
    isolation: {
      type: "object",
      additionalProperties: false,
      properties: { allowWeaker: { type: "boolean" } },
    },
    env: { type: "array", items: envName },
    cache: {
      type: "object",
      additionalProperties: false,
      properties: { enabled: { type: "boolean" }, dir: nonEmptyString },
    },
    onDemand: {
      type: "object",
      additionalProperties: false,
      properties: {
        label: nonEmptyString,
        unrequested: { enum: ["neutral", "pass-if-no-skill"] },
      },
    },
    competitors: {
      type: "object",
      additionalProperties: false,
      properties: { maxPrompts: { type: "integer", minimum: 0, maximum: 100000 } },
    },
    routing: {
      type: "object",
      additionalProperties: false,
      properties: { casePrompts: { type: "integer", minimum: 0, maximum: 100000 } },
    },
    requireSuite: { type: "boolean" },
    security: {
      type: "object",
      additionalProperties: false,
      properties: {
        allow: {
          type: "object",
          additionalProperties: false,
          properties: {
            hosts: { type: "array", items: { type: "string", pattern: "^(\\*\\.)?[A-Za-z0-9._:-]+$" } },
            commands: { type: "array", items: nonEmptyString },
          },
        },
      },
    },
  },
} as const;
