/** skill-creator compatible exports (benchmark.json, grading.json per run) next to the JSON report. */
import { join } from "node:path";
import { summariseDiscriminator } from "../grade/discriminator.js";
import type { Settings } from "../model/index.js";
import { writeSkillCreatorExports } from "../report/exports.js";
import type { TrialLedger } from "../run/ledger.js";
import type { JobTrials } from "./confirm.js";
import type { SkillPlan } from "./jobs.js";

/** One export folder per skill whose discriminator battery ran in the head arm, under `settings.outputs.exports`. */
export async function writeExports(
  settings: Settings,
  plans: SkillPlan[],
  runs: JobTrials[],
  ledger: TrialLedger,
  startedAt: string,
): Promise<void> {
  const root = settings.outputs.exports;
  if (!root) return;
  for (const p of plans) {
    if (!p.head?.skill.suite || !p.info.batteries.discriminator) continue;
    const headRun = runs.find((r) => r.job === p.head)!;
    const checks = headRun.checks;
    const requests = headRun.requests.filter((r) => r.mode !== "trigger");
    // A plugin's skill (`plugin:skill`) gets a folder per plugin.
    await writeSkillCreatorExports(join(root, ...p.info.name.split(":")), {
      skill: { name: p.info.name, path: p.head.skill.path },
      suite: p.head.skill.suite,
      records: requests.map((r) => ({
        ...ledger.records.get(r.key)!,
        skill: r.skill,
        caseId: r.caseId,
        mode: r.mode,
        trial: r.trial,
      })),
      checks,
      discriminator: summariseDiscriminator(checks.filter((c) => c.mode !== "trigger")),
      executorModel: ledger.identity,
      timestamp: startedAt,
    });
  }
}
