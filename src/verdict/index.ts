export { combineVerdicts, decideSkillVerdict, type SkillVerdict, type SkillVerdictInput } from "./decide.js";
export {
  type ConfirmFn,
  confirmationSchedule,
  decideNewRoots,
  lookAlphaShares,
  type RootDecision,
} from "./new-roots.js";
export { fisherOneSided, minAttainableP, seededRandom, wilson } from "./stats.js";
export { diffSuites, type WeakeningFinding, type WeakeningKind } from "./weakening.js";
