/** `skillgate harvest` on the terminal: per case the answers it clustered and the discriminators it proposes. */
import type { HarvestProposal, HarvestReport, RateWithInterval } from "../model/index.js";

const pct = (r: RateWithInterval) =>
  r.total === 0
    ? "0/0"
    : `${Math.round(r.rate * 100)}% [${Math.round(r.low * 100)}%–${Math.round(r.high * 100)}%] (${r.passed}/${r.total})`;

function proposalLines(p: HarvestProposal): string[] {
  const { id, ...rest } = p.assertion;
  return [
    `    PROPOSE ${p.kind} ${String(id)} → ${p.file || "(not patched)"}`,
    `      ${JSON.stringify(rest)}`,
    `      baseline fails it ${pct(p.baselineFailure)}; skill passes it ${p.skillPass ? pct(p.skillPass) : "not measured (no skill trials)"}`,
    `      why: ${p.rationale}`,
    ...(p.example
      ? [
          `      e.g. ${p.example.mode} trial ${p.example.trial}: ${JSON.stringify(p.example.output.slice(0, 160))}${p.example.tools.length ? ` tools ${p.example.tools.join(" → ")}` : ""}`,
        ]
      : []),
  ];
}

export function renderHarvest(r: HarvestReport, opts: { patch?: string; out?: string } = {}): string {
  const out: string[] = [];
  const proposals = r.skills.flatMap((s) => s.cases.flatMap((c) => c.proposals));
  out.push(
    `skillgate harvest: ${proposals.length} proposal(s) in ${r.skills.length} skill(s)  [agent ${r.agent.adapter}, ${r.trials} trial(s) per case and mode, ${r.withSkill ? "baseline and skill" : "baseline only"}, seed ${r.seed}]`,
  );
  for (const e of r.errors) out.push(`  error: ${e}`);
  for (const s of r.skills) {
    out.push("", `${s.name} (tasks: ${s.source})`);
    for (const e of s.errors) out.push(`  error: ${e}`);
    for (const c of s.cases) {
      out.push(
        `  case ${c.id}: ${c.trials.baseline} baseline, ${c.trials.skill} skill trial(s)${c.trials.errored ? `, ${c.trials.errored} errored` : ""}`,
      );
      for (const k of c.clusters.filter((x) => x.wrong))
        out.push(
          `    wrong ${k.feature}: ${JSON.stringify(k.value.length > 100 ? `${k.value.slice(0, 100)}…` : k.value)}  baseline ${k.baseline}, skill ${k.skill}`,
        );
      for (const p of c.proposals) out.push(...proposalLines(p));
      for (const n of c.notes) out.push(`    note: ${n}`);
    }
  }
  out.push("");
  if (opts.patch)
    out.push(
      `patch: ${opts.patch} (review it, then apply from the repository root: git apply ${opts.patch})`,
    );
  if (opts.out) out.push(`proposed files: ${opts.out}/ (${(r.patchFiles ?? []).join(", ") || "none"})`);
  if (!opts.patch && !opts.out && r.patchFiles?.length)
    out.push(
      `would change ${r.patchFiles.join(", ")}: write the patch with --patch FILE (nothing is applied for you)`,
    );
  out.push(
    `agent calls ${r.cost.agentCalls}, cache hits ${r.cost.cacheHits}, cost $${r.cost.usd.toFixed(4)}`,
  );
  return `${out.join("\n")}\n`;
}
