import type { AssertionOutcome } from "../../model/check.js";
import type { Assertion } from "../../model/suite.js";
import { outcome } from "./common.js";
import type { AssertionContext, AssertionType } from "./registry.js";

const schema = {
  type: "object",
  properties: { value: { type: "string", minLength: 1 } },
  additionalProperties: false,
};

/** Reads the harness's record of activated skills (`TrialRecord.skillsActivated`), never the output text. */
function check(a: Assertion, ctx: AssertionContext, wantUsed: boolean): AssertionOutcome {
  const name = typeof a.params.value === "string" ? a.params.value : ctx.skill;
  const used = ctx.trial.skillsActivated.includes(name);
  const registered = ctx.trial.skillsRegistered;
  const notRegistered = registered !== undefined && !registered.includes(name);
  const activated = ctx.trial.skillsActivated.length ? ctx.trial.skillsActivated.join(", ") : "none";
  const actual = `skills activated: ${activated}${notRegistered ? ` (${name} was not even registered)` : ""}`;
  return outcome(used === wantUsed, `skill ${name} ${wantUsed ? "" : "not "}activated`, actual);
}

export const skillUsed: AssertionType = {
  type: "skill-used",
  level: "process",
  schema,
  async evaluate(a, ctx) {
    return check(a, ctx, true);
  },
};

export const notSkillUsed: AssertionType = {
  type: "not-skill-used",
  level: "process",
  schema,
  async evaluate(a, ctx) {
    return check(a, ctx, false);
  },
};
