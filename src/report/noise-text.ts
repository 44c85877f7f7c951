/** `plan --noise` as text: per skill, its stored trials' noise floor and what to do about units too flaky to gate. */
import type { StoredNoise, UnitNoise } from "../verdict/noise.js";

const pct = (x: number) => `${Math.round(x * 100)} %`;
const counts = (u: UnitNoise) => `${u.checkId} ${u.passes}/${u.trials}`;

function skillLines(name: string, n: StoredNoise): string[] {
  if (n.storedPerCase === 0 && n.units === 0)
    return [
      `  ${name}: nothing stored for the ${n.arm === "base" ? "base" : "default branch"} (the default branch's workflow stores trials: examples/workflows/skillgate-main.yml)`,
    ];
  const head = `  ${name} (${n.arm}): ${n.units} unit(s), ${n.storedPerCase} stored trial(s) per case: ${n.flaky.length} flaky`;
  const lines = [n.flaky.length ? `${head}: ${n.flaky.map(counts).join(", ")}` : head];
  if (n.tooFlaky.length)
    lines.push(
      `    too flaky to gate at this budget: ${n.tooFlaky
        .map((u) => `${u.checkId} (a drop to ${pct(u.droppedTo ?? 0)} found in ${pct(u.power ?? 0)} of PRs)`)
        .join(", ")}; steady them, or give them more first-batch trials (meta.json trials)`,
    );
  if (n.alwaysFail.length)
    lines.push(
      `    fail every stored trial (no PR can make them worse): ${n.alwaysFail.map((u) => u.checkId).join(", ")}`,
    );
  if (n.unmeasured) lines.push(`    ${n.unmeasured} unit(s) with no graded stored trial (an error in each)`);
  return lines;
}

export function noiseLines(noise: Record<string, StoredNoise>): string[] {
  const names = Object.keys(noise).sort();
  if (names.length === 0) return ["noise: no skill to read stored trials for"];
  return [
    "noise (the stored trials a PR's base reads, graded; no agent call):",
    ...names.flatMap((n) => skillLines(n, noise[n]!)),
  ];
}
