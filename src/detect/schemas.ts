/**
 * JSON Schemas (ajv) for every file type skillgate reads, derived from the types the loaders read them into
 * (src/model/files.ts, `SkillgateConfig`) by scripts/shape-schemas.mjs: one source per shape. Each is typed with
 * its shape, so a value that passed is that type (`SuiteReader.validate`). Semantic checks that a schema can't
 * express (name equals folder, unknown assertion types, duplicate ids) live next to the loaders.
 */
import type {
  AssertionFileShape,
  AssertionShape,
  CaseShape,
  FrontmatterShape,
  MetaShape,
  SkillgateConfig,
  TriggerEvalShape,
  WazaTriggerShape,
} from "../model/index.js";
import shapes from "./shapes.schema.json" with { type: "json" };

/** A JSON Schema, and the type of a value it accepts. */
export type Schema<T> = object & { readonly __accepts?: T };

export const configSchema: Schema<SkillgateConfig> = shapes.SkillgateConfig;
export const frontmatterSchema: Schema<FrontmatterShape> = shapes.FrontmatterShape;
export const metaSchema: Schema<MetaShape> = shapes.MetaShape;
export const caseSchema: Schema<CaseShape> = shapes.CaseShape;
export const assertionSchema: Schema<AssertionShape> = shapes.AssertionShape;
export const assertionFileSchema: Schema<AssertionFileShape> = shapes.AssertionFileShape;
export const triggerEvalSchema: Schema<TriggerEvalShape> = shapes.TriggerEvalShape;
export const wazaTriggerSchema: Schema<WazaTriggerShape> = shapes.WazaTriggerShape;

/** The spec's frontmatter keys, the strict profile's only ones. */
export const PORTABLE_FRONTMATTER_KEYS = Object.keys(shapes.FrontmatterShape.properties);
/** Keys every assertion may carry; everything else is a type-specific param. */
export const COMMON_ASSERTION_KEYS = new Set(Object.keys(shapes.AssertionShape.properties));
/** Keys of waza's trigger_tests.yaml, and of one of its prompts, that skillgate reads. */
export const WAZA_TRIGGER_KEYS = new Set(Object.keys(shapes.WazaTriggerShape.properties));
export const WAZA_PROMPT_KEYS = new Set(
  Object.keys(shapes.WazaTriggerShape.properties.should_trigger_prompts.items.anyOf[1]!.properties!),
);
