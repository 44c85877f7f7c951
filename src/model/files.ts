/**
 * The files skillgate reads from a repository, as written: SKILL.md frontmatter and the seed suite formats (the
 * configuration is `SkillgateConfig`). One source per shape: scripts/shape-schemas.mjs derives their JSON Schemas
 * (src/detect/shapes.schema.json) from these types, a test fails when the committed file is stale, and the loaders
 * read a value as its type only once it passed its schema. JSDoc tags say what a type cannot (`@minimum`,
 * `@pattern`, `@asType integer`; `@description` words a pattern's message); an index signature leaves an object
 * open. Semantic checks (name equals folder, unknown assertion types, duplicate ids) live next to the loaders.
 */
import type { RobustnessDimensionId } from "./robustness.js";
import type { AssertionRubric, CheckLevel, Thresholds } from "./suite.js";

/** @minLength 1 */
export type NonEmptyString = string;

/**
 * An environment variable's exact name: no `*` patterns (forwarding is by name, one at a time).
 * @pattern ^[A-Za-z_][A-Za-z0-9_]*$
 * @description an exact variable name (letters, digits and _; no `*` patterns)
 */
export type EnvName = string;

/** Agent Skills spec frontmatter (agentskills.io); other keys are graded by profile (skill-fields.ts). */
export interface FrontmatterShape {
  name: string;
  description: string;
  license?: string;
  compatibility?: string;
  /** Non-string values, a JSON string (OpenClaw's style) are graded by profile in skill-file.ts. */
  metadata?: Record<string, unknown> | string;
  "allowed-tools"?: string | NonEmptyString[];
  [key: string]: unknown;
}

/** Shell words run sandboxed in the suite folder, printing one JSON object of variables. */
export type OracleShape =
  | NonEmptyString
  | {
      command: NonEmptyString;
      /** @exclusiveMinimum 0 */
      timeoutSeconds?: number;
    };

/** @minimum 0 */
type Weight = number;

/** A suite's `meta.json`. */
export interface MetaShape {
  $schema?: string;
  skillVersion?: string | number;
  suiteVersion?: string | number;
  lastRun?: string;
  /** @asType integer @minimum 1 @maximum 100 */
  trials?: number;
  thresholds?: Thresholds;
  oracle?: OracleShape;
  vars?: Record<string, unknown>;
  evalMode?: string;
  constraints?: string[];
  robustness?: {
    /** @minItems 1 @uniqueItems true */
    dimensions?: RobustnessDimensionId[];
    weights?: Partial<Record<RobustnessDimensionId, Weight>>;
  };
}

/** A file copied into the trial workspace: a path, or `{from, to}`. */
type CaseFileShape = NonEmptyString | { from: NonEmptyString; to?: NonEmptyString };

/** `prompts/<case-id>.{json,yaml}`: one case. */
export interface CaseShape {
  $schema?: string;
  /** @minLength 1 @pattern ^[A-Za-z0-9][A-Za-z0-9._:-]*$ */
  id: string;
  prompt: NonEmptyString;
  description?: string;
  files?: CaseFileShape[];
  vars?: Record<string, unknown>;
  oracle?: OracleShape;
  /** Each checked on its own (`AssertionShape`, then its type's params), located. */
  assertions?: Record<string, unknown>[];
  dimension?: RobustnessDimensionId;
  /** @minLength 1 */
  reformulationOf?: string;
  expect?: "refusal" | "solution";
  /** @asType integer @minimum 0 @maximum 100 */
  tier?: number;
}

/** Common fields of every assertion; the other keys are the type's params, checked with the type's own schema. */
export interface AssertionShape {
  /** @minLength 1 @pattern ^[^\s/]+$ */
  id: string;
  type: NonEmptyString;
  discriminator?: boolean;
  depends_on?: NonEmptyString | NonEmptyString[];
  condition?: string;
  /** @pattern ^(text|first-number|last-line|code-block|json|json:.*)$ */
  extract?: string;
  level?: CheckLevel;
  description?: string;
  rubric?: AssertionRubric;
  [param: string]: unknown;
}

/** `assertions/<case-id>.{json,yaml}`: a list, or `{assertions: [...]}`. */
export type AssertionFileShape =
  | Record<string, unknown>[]
  | { $schema?: string; assertions: Record<string, unknown>[] };

type TriggerQueryShape =
  | NonEmptyString
  | { prompt: NonEmptyString; reason?: string; confidence?: "high" | "medium" };

/** `trigger-eval.json`. */
export interface TriggerEvalShape {
  $schema?: string;
  shouldFire: TriggerQueryShape[];
  shouldNotFire: TriggerQueryShape[];
}

/** waza's trigger prompts; keys it does not read (`category` …) are passed over, as its YAML decoder does. */
type WazaPromptShape =
  | NonEmptyString
  | { prompt: NonEmptyString; reason?: string; confidence?: "high" | "medium"; [key: string]: unknown };

/**
 * microsoft/waza `trigger_tests.yaml`: one list at least (a type could say so only as a union of two objects, whose
 * messages would name both branches).
 * @anyOf [{ "required": ["should_trigger_prompts"] }, { "required": ["should_not_trigger_prompts"] }]
 */
export interface WazaTriggerShape {
  $schema?: string;
  skill?: string;
  should_trigger_prompts?: WazaPromptShape[];
  should_not_trigger_prompts?: WazaPromptShape[];
  [key: string]: unknown;
}
