import type { Assertion } from "../model/index.js";
import type { AssertionTypeLookup, StaticProblem } from "./suite-context.js";

/** Builds the lookup the suite loaders need from any registry shaped like the grade stage's. */
export function assertionLookup(registry: {
  getAssertionType(type: string): { schema: object } | undefined;
  assertionTypeNames(): string[];
  checkAssertion?(a: Assertion): StaticProblem[];
}): AssertionTypeLookup {
  return {
    schemaOf: (type) => registry.getAssertionType(type)?.schema,
    names: () => registry.assertionTypeNames(),
    check: (a) => registry.checkAssertion?.(a) ?? [],
  };
}
