/** Registers every built-in assertion type. Import once before grading or validating suites. */
import { contains, icontains } from "./contains.js";
import { equals } from "./equals.js";
import { fileContains, fileExists } from "./files.js";
import { gate } from "./gate.js";
import { javascript } from "./javascript.js";
import { jsonSchema } from "./json-schema.js";
import { judge } from "./judge.js";
import { numberRange } from "./number-range.js";
import { notOneOf, oneOf } from "./one-of.js";
import { regex } from "./regex.js";
import { type AssertionType, getAssertionType, registerAssertion } from "./registry.js";
import { notSkillUsed, skillUsed } from "./skill-used.js";
// Static checks of the built-in types (invalid regexes, unknown gates), registered with them.
import "./static-checks.js";
import { allowedTools, toolCalled, toolNotCalled, toolOrder } from "./tools.js";

const BUILTIN_ASSERTIONS: readonly AssertionType[] = [
  equals,
  contains,
  icontains,
  regex,
  oneOf,
  notOneOf,
  numberRange,
  jsonSchema,
  javascript,
  fileExists,
  fileContains,
  gate,
  skillUsed,
  notSkillUsed,
  toolCalled,
  toolNotCalled,
  toolOrder,
  allowedTools,
  judge,
];

for (const def of BUILTIN_ASSERTIONS) if (!getAssertionType(def.type)) registerAssertion(def);

export * from "./registry.js";
