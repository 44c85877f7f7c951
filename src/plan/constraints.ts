/**
 * The baseline constraint block (seeds/003: an explicit, logged constraint injected into every baseline
 * context). Filesystem absence is the real barrier; this block and the transcript scan are the second and third.
 */
export const BASELINE_CONSTRAINTS = [
  "Do NOT read any file under .agent/skills/, .agents/skills/, .claude/skills/, .github/skills/ or skills/.",
  "Do NOT read any file under .agent/workflows/ or .agent/evals/.",
  "If you discover a skill or workflow file by accident, discard its contents and do not apply its guidance.",
];
