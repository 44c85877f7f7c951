/** Battery summaries built the way the pipeline builds them, from per-trial checks, for verdict tests. */
import { summariseDiscriminator } from "../../src/grade/discriminator.js";
import { summariseTrigger } from "../../src/grade/trigger.js";
import type { CheckResult, TriggerSummary } from "../../src/model/index.js";
import { triggerQueries } from "../../src/plan/queries.js";
import { check } from "../attribute/make-checks.js";

/** Trigger runs: per should-fire query `[fired, runs]`, and per should-not-fire query the same. */
export function trigger(fire: [number, number][], nofire: [number, number][] = []): TriggerSummary {
  const set = {
    file: "t.json",
    shouldFire: fire.map((_, i) => ({
      prompt: `fire ${i}`,
      weight: 1,
      loc: { file: "t.json", line: i + 1, column: 1 },
    })),
    shouldNotFire: nofire.map((_, i) => ({
      prompt: `nofire ${i}`,
      weight: 1,
      loc: { file: "t.json", line: 50 + i, column: 1 },
    })),
  };
  const checks: CheckResult[] = [];
  const runs = (kind: "fire" | "nofire", i: number, [fired, n]: [number, number]) => {
    for (let t = 0; t < n; t++) {
      const did = t < fired;
      const c = check(`trigger/${kind}/${i}`, did === (kind === "fire") ? "pass" : "fail", {
        trial: t,
        mode: "trigger",
        skill: "triage",
      });
      c.details = {
        shouldFire: kind === "fire",
        fired: did,
        activated: did ? ["triage"] : [],
        expectedSkill: "x",
        weight: 1,
      };
      checks.push(c);
    }
  };
  for (const [i, q] of fire.entries()) runs("fire", i, q);
  for (const [i, q] of nofire.entries()) runs("nofire", i, q);
  // biome-ignore lint/suspicious/noExplicitAny: the trigger set's shape beyond the queries is not read
  return summariseTrigger(checks, triggerQueries(set as any), { router: "claude-code", proxy: false });
}

/** Discriminator trials: per case `[passed, trials]` in skill mode and in baseline mode. */
export function discriminator(skill: [number, number][], baseline: [number, number][]) {
  const checks: CheckResult[] = [];
  const add = (mode: "skill" | "baseline", i: number, [passed, n]: [number, number]) => {
    for (let t = 0; t < n; t++) {
      checks.push(check(`case${i}/trial-ok`, "pass", { trial: t, mode }));
      checks.push(check(`case${i}/D:answer`, t < passed ? "pass" : "fail", { trial: t, mode }));
    }
  };
  for (const [i, c] of skill.entries()) add("skill", i, c);
  for (const [i, c] of baseline.entries()) add("baseline", i, c);
  return summariseDiscriminator(checks);
}
