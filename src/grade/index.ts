/** The grade stage: assertions on trials, battery statistics, and what the lead's pipeline calls. */
export * from "./assertions/index.js";
export { classify, summariseDiscriminator } from "./discriminator.js";
export { checkExtractor, extract } from "./extract.js";
export { applyNegation, checkIdOf, type GradeTrialInput, gradeTrial, TRIAL_OK } from "./grade-trial.js";
export { createJudge, type Judge, type JudgeOptions } from "./judge.js";
export { checkLockstep, type LockstepResult, MAX_VERSION_LAG, revisionLag } from "./lockstep.js";
export { resolveVars } from "./oracle.js";
export type { GateResult, GradeServices } from "./ports.js";
export { summariseRobustness, tierOf } from "./robustness.js";
export { defaultServices } from "./services.js";
export { rate, wilson } from "./stats.js";
export { confusionTable, gradeTriggerTrial, summariseTrigger } from "./trigger.js";
export { evaluateCondition, placeholderNames, resolvePlaceholders } from "./vars.js";
