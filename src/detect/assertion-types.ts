import type { AssertionTypeLookup } from "./suite-context.js";

/** Builds the lookup the suite loaders need from any registry shaped like the grade stage's. */
export function assertionLookup(registry: {
  getAssertionType(type: string): { schema: object } | undefined;
  assertionTypeNames(): string[];
}): AssertionTypeLookup {
  return {
    schemaOf: (type) => registry.getAssertionType(type)?.schema,
    names: () => registry.assertionTypeNames(),
  };
}
