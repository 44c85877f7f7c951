import { describe, expect, it } from "vitest";
import type { CheckResult, Report, Root } from "../../src/model/index.js";
import { DEFAULT_VERDICT_POLICY } from "../../src/settings/defaults.js";
import { decideNewRoots } from "../../src/verdict/new-roots.js";
import { evidenceDisagreements, recomputeDecisions, toEvidence } from "../../src/verdict/recompute.js";
import { check } from "../attribute/make-checks.js";

const policy = { ...DEFAULT_VERDICT_POLICY };

/** Trial t of check `id` fails when `fails(t)`; trials [from, from + n). */
const run = (id: string, n: number, fails: (t: number) => boolean, from = 0): CheckResult[] =>
  Array.from({ length: n }, (_, i) => check(id, fails(from + i) ? "fail" : "pass", { trial: from + i }));

/**
 * What the pipeline does, recorded: the first batch of 5, then the confirmation trials the decider asked for,
 * numbered on. Returns every check of both arms, as a report's evidence holds them, and the decisions.
 */
async function recordedRun(headFails: (t: number) => boolean, baseFails: (t: number) => boolean) {
  const head = [...run("split/a", 5, headFails), ...run("split/b", 5, () => false)];
  const base = [...run("split/a", 5, baseFails), ...run("split/b", 5, () => false)];
  const next = { head: 5, base: 5 };
  const decisions = await decideNewRoots(head, base, policy, async (roots) => {
    const extra = roots[0]!.extraTrials;
    const batch = {
      head: roots.flatMap((r) => run(r.checkId, extra.head, headFails, next.head)),
      base: roots.flatMap((r) => run(r.checkId, extra.base, baseFails, next.base)),
    };
    next.head += extra.head;
    next.base += extra.base;
    head.push(...batch.head);
    base.push(...batch.base);
    return batch;
  });
  return { head, base, decisions };
}

const evidenceOf = (head: CheckResult[], base: CheckResult[]) => ({
  "split-cents": {
    firstBatch: { perCase: 5, triggerRuns: 3 },
    head: toEvidence(head),
    base: toEvidence(base),
  },
});

describe("recomputing decisions from a report's evidence", () => {
  it("replays the sequential decision to the same result the run reached", async () => {
    for (const [hf, bf] of [
      [(t: number) => t % 2 === 0, () => false],
      [() => true, () => false],
      [(t: number) => t === 1, () => false],
      [(t: number) => t % 3 === 0, (t: number) => t % 3 === 0],
    ] as const) {
      const { head, base, decisions } = await recordedRun(hf, bf);
      const again = recomputeDecisions(evidenceOf(head, base), policy);
      expect(again.missing).toBeUndefined();
      expect(again.decisions.map((d) => [d.checkId, d.status, d.head, d.base])).toEqual(
        decisions.map((d) => [d.checkId, d.status, d.head, d.base]),
      );
    }
  });

  it("says what is missing when the evidence lacks the confirmation trials the policy asks for", async () => {
    const { head, base } = await recordedRun(
      (t) => t % 2 === 0,
      () => false,
    );
    // The forger dropped every confirmation trial of the suspect at head.
    const cut = head.filter((c) => c.trial < 5);
    const r = recomputeDecisions(evidenceOf(cut, base), policy);
    expect(r.missing).toMatch(/further head trial\(s\) of split-cents skill split/);
    expect(r.decisions.find((d) => d.checkId === "split/a")!.status).toBe("inconclusive");
  });

  it("under a stricter base policy, a report's trials may not suffice: never a silent pass", async () => {
    const { head, base } = await recordedRun(
      (t) => t % 2 === 0,
      () => false,
    );
    const r = recomputeDecisions(evidenceOf(head, base), { ...policy, alpha: 0.0001 });
    const a = r.decisions.find((d) => d.checkId === "split/a")!;
    expect(["new", "inconclusive"]).toContain(a.status);
  });
});

describe("a report whose verdict does not follow from its evidence", () => {
  async function report(): Promise<Report> {
    const { head, base, decisions } = await recordedRun(
      () => true,
      () => false,
    );
    const roots: Root[] = decisions.map((d) => ({
      id: d.checkId,
      kind: "assertion",
      skill: "split-cents",
      status: d.status,
      title: d.checkId,
      message: "",
      file: d.loc.file,
      line: d.loc.line,
      column: 1,
      cascaded: [],
      blocking: d.status === "new",
    }));
    return {
      skills: [
        {
          name: "split-cents",
          roots,
          trials: { perCase: 5, triggerRuns: 3 },
          evidence: evidenceOf(head, base)["split-cents"],
        },
      ],
    } as unknown as Report;
  }

  it("agrees with an honest report", async () => {
    expect(evidenceDisagreements(await report(), policy)).toEqual([]);
  });

  it("names a root whose status was edited, a root that was dropped, and a skill without evidence", async () => {
    const edited = await report();
    edited.skills[0]!.roots[0]!.status = "pre-existing";
    expect(evidenceDisagreements(edited, policy)).toEqual([
      "split-cents: split/a is new by the evidence; the report says pre-existing",
    ]);
    const dropped = await report();
    dropped.skills[0]!.roots = [];
    expect(evidenceDisagreements(dropped, policy)).toEqual([
      "split-cents: split/a is new by the evidence but missing from the report",
    ]);
    const bare = await report();
    delete bare.skills[0]!.evidence;
    expect(evidenceDisagreements(bare, policy)[0]).toMatch(/carries no per-trial evidence/);
  });

  it("catches a forged pass: the same trials with the failures flipped in the roots but not in the evidence", async () => {
    const forged = await report();
    forged.skills[0]!.roots = forged.skills[0]!.roots.filter((r) => r.status !== "new");
    expect(evidenceDisagreements(forged, policy).length).toBeGreaterThan(0);
  });
});
