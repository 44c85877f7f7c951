/**
 * `validateAgainst` compiles schemas without checking them against the JSON Schema meta-schema (a run's start-up
 * cost): every schema it is given is skillgate's own, and this test is where they are checked instead.
 */
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import * as schemas from "../../src/detect/schemas.js";
import "../../src/grade/assertions/index.js";
import { assertionTypeNames, getAssertionType, staticSchemaOf } from "../../src/grade/assertions/registry.js";

const checker = new Ajv({ strict: false, allowUnionTypes: true });
const problems = (schema: object) =>
  checker.validateSchema(schema) ? [] : (checker.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);

describe("the schemas validateAgainst compiles", () => {
  const own = Object.entries(schemas).filter(([name]) => name.endsWith("Schema")) as [string, object][];

  it.each(own)("%s is a valid JSON Schema", (_, schema) => {
    expect(problems(schema)).toEqual([]);
  });

  it("every assertion type's params schema, and the one suites are checked with, is a valid JSON Schema", () => {
    const names = assertionTypeNames();
    expect(names.length).toBeGreaterThan(10);
    for (const type of names) {
      expect([type, problems(getAssertionType(type)!.schema)]).toEqual([type, []]);
      const placeholders = staticSchemaOf(type);
      if (placeholders) expect([type, problems(placeholders)]).toEqual([type, []]);
    }
  });

  it("finds a schema that is not one", () => {
    expect(problems({ type: "object", properties: { a: { type: "strnig" } } })).not.toEqual([]);
  });
});
