/**
 * The thresholds' part of a skill's verdict: each battery's figure against the trusted policy's threshold, with
 * its confidence; a figure that could not be measured is said, not passed.
 */
import type { Thresholds } from "../model/index.js";
import type { SkillVerdictInput } from "./decide.js";
import { type Findings, findings, pct, plainRoot } from "./finding-roots.js";
import { confidenceText, figureText, judgeThresholds, type ThresholdJudgement } from "./thresholds.js";

/**
 * Thresholds from meta.json / config, each judged with its uncertainty and against the base (`thresholds.ts`): only
 * a head confidently below a threshold the base meets (or with no base to compare) blocks.
 */
export function thresholdFindings(input: SkillVerdictInput): Findings {
  const head = { discriminator: input.discriminator, trigger: input.trigger };
  const judged = judgeThresholds(input.thresholds, head, input.baseFigures, input.policy.alpha);
  const parts = judged.map((j) => thresholdFinding(input, j));
  const out = findings(
    parts.flatMap((p) => p.roots),
    parts.flatMap((p) => p.reasons),
    parts.flatMap((p) => p.undecided),
  );
  const disc = input.discriminator;
  if (disc?.styleGuideNotGuardrail)
    out.reasons.push(
      `style guide, not a guardrail: overall lift ${pct(disc.lift)} but discriminator lift ${pct(disc.discriminatorLift)}`,
    );
  return out;
}

const THRESHOLD_NAMES: Record<keyof Thresholds, string> = {
  discriminatorPassRate: "Discriminator pass rate",
  discriminatorLift: "Discriminator lift",
  triggerPrecision: "Trigger precision",
  triggerRecall: "Trigger recall",
};

/** Why a figure could not be computed. */
function missingText(input: SkillVerdictInput, key: keyof Thresholds): string {
  const notRun = (battery: string) => `the ${battery} battery did not run`;
  if (key === "discriminatorPassRate")
    return input.discriminator ? "no discriminator assertion was graded" : notRun("discriminator");
  if (key === "discriminatorLift")
    return input.discriminator
      ? "discriminator assertions were not graded in both skill and baseline trials"
      : notRun("discriminator");
  if (!input.trigger) return notRun("trigger");
  return key === "triggerPrecision"
    ? "the skill never fired, so precision is undefined"
    : "there are no should-fire queries";
}

function thresholdFinding(input: SkillVerdictInput, j: ThresholdJudgement): Findings {
  const { locs, policy } = input;
  const key = j.key;
  const metaLoc = { file: locs.metaFile ?? locs.skillFile, line: locs.metaLine ?? 1, column: 1 };
  const id = `threshold/${key}`;
  const proxy =
    input.trigger?.proxy && key.startsWith("trigger") ? ` (router: ${input.trigger.router}, a proxy)` : "";
  const what = `${THRESHOLD_NAMES[key]}${proxy}`;
  const baseText = j.base
    ? `; base ${figureText(j.base, key)}`
    : input.baseFigures
      ? "; base not measured"
      : "";
  if (j.status === "unmeasured") {
    const errored = input.errors.length > 0;
    // The base ran the same battery and lacked the same figure: the suite's shape, not this change.
    const baseRan = key.startsWith("trigger") ? input.baseFigures?.trigger : input.baseFigures?.discriminator;
    const preExisting = !errored && !!baseRan && !j.base;
    const root = plainRoot(
      input.skill,
      id,
      "threshold",
      metaLoc,
      {
        title: `Threshold ${key} could not be checked`,
        message: `${key} ≥ ${j.min} is required but ${missingText(input, key)}${errored ? " (trials errored)" : ""}${preExisting ? "; the base could not measure it either (pre-existing)" : ""}.`,
      },
      !preExisting || policy.preExisting === "fail",
      preExisting ? "pre-existing" : "head-only",
    );
    // Unmeasurable because trials errored: "could not decide", not a failure of the skill.
    return findings([root], [`threshold ${key} could not be checked`], errored ? [root] : []);
  }
  const head = j.head!;
  const confidence = confidenceText(j.alpha);
  const measured = `measured ${figureText(head, key)}${baseText}`;
  if (j.status === "not-significant") {
    const root = plainRoot(
      input.skill,
      id,
      "threshold",
      metaLoc,
      {
        title: `${what} ${head.value.toFixed(3)} is under the threshold ${j.min}, not with confidence`,
        message: `${key} must be ≥ ${j.min}; ${measured}. Its interval reaches the threshold at ${confidence} confidence: reported, not blocking.`,
      },
      false,
      "not-significant",
    );
    return findings(
      [root],
      [`${key} ${head.value.toFixed(3)} under ${j.min}, not significantly (not blocking)`],
    );
  }
  if (j.status === "pre-existing") {
    const blocking = policy.preExisting === "fail";
    const root = plainRoot(
      input.skill,
      id,
      "threshold",
      metaLoc,
      {
        title: `${what} is below the threshold ${j.min} at head and at base`,
        message: `${key} must be ≥ ${j.min}; ${measured}. The base misses it too: pre-existing${blocking ? " (blocking by policy)" : ", not blocking"}.`,
      },
      blocking,
      "pre-existing",
    );
    return findings([root], [`${key} below ${j.min} at head and base (pre-existing)`]);
  }
  const compared = !!input.baseFigures && j.compared;
  const blocking = compared || (policy.headOnly ?? "fail") === "fail";
  const root = plainRoot(
    input.skill,
    id,
    "threshold",
    metaLoc,
    {
      title: `${what} ${head.value.toFixed(3)} is below the threshold ${j.min}`,
      message: `${key} must be ≥ ${j.min}; ${measured}. Below it with ${confidence} confidence${compared ? ", while the base meets it" : ", with no base to compare"}.`,
    },
    blocking,
    compared ? "new" : "head-only",
  );
  return findings([root], [`${key} ${head.value.toFixed(3)} < ${j.min}`]);
}
