import type { Assertion, Case, SourceLocation, SuiteMeta } from "../model/index.js";
import type { AssertionTypeLookup, StaticProblem } from "./suite-context.js";

/** Builds the lookup the suite loaders need from any registry shaped like the grade stage's. */
export function assertionLookup(registry: {
  getAssertionType(type: string): { schema: object } | undefined;
  /** The schema suites are validated with (placeholders allowed), when it differs from the type's own. */
  staticSchemaOf?(type: string): object | undefined;
  assertionTypeNames(): string[];
  checkAssertion?(a: Assertion): StaticProblem[];
  checkTemplates?(
    c: Case,
    meta: SuiteMeta | undefined,
  ): { loc: SourceLocation; code: string; message: string }[];
}): AssertionTypeLookup {
  return {
    schemaOf: (type) => registry.staticSchemaOf?.(type) ?? registry.getAssertionType(type)?.schema,
    names: () => registry.assertionTypeNames(),
    check: (a) => registry.checkAssertion?.(a) ?? [],
    checkTemplates: (c, meta) => registry.checkTemplates?.(c, meta) ?? [],
  };
}
