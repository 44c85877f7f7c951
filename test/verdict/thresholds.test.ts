import { describe, expect, it } from "vitest";
import {
  confidentlyBelow,
  type FigureUnits,
  figureInterval,
  figureValue,
} from "../../src/grade/unit-rates.js";
import { DEFAULT_VERDICT_POLICY } from "../../src/settings/defaults.js";
import { seededRandom } from "../../src/util/random.js";
import { decideSkillVerdict, type SkillVerdictInput } from "../../src/verdict/decide.js";
import { discriminator, trigger } from "./make-figures.js";

const META = ".agent/evals/triage/meta.json";
const locs = { skillFile: ".claude/skills/triage/SKILL.md", descriptionLine: 3, metaFile: META, metaLine: 2 };

function input(overrides: Partial<SkillVerdictInput>): SkillVerdictInput {
  return {
    skill: "triage",
    roots: [],
    weakening: [],
    thresholds: {},
    contaminated: [],
    errors: [],
    validationErrors: [],
    policy: { ...DEFAULT_VERDICT_POLICY },
    locs,
    ...overrides,
  };
}

describe("battery figures count each case or query once", () => {
  it("does not let the confirmation trials of one failing query drag recall down (the three-skill repository)", () => {
    // Five queries fire in all 3 runs; one never fires, and confirmation gave it 16 runs: pooled 15/31 = 48 %.
    const head = trigger([
      [3, 3],
      [3, 3],
      [3, 3],
      [3, 3],
      [3, 3],
      [0, 16],
    ]);
    expect(head.recall.rate).toBeCloseTo(5 / 6, 10);
    expect(head.recall).toMatchObject({ units: 6, passing: 5, trials: 31, unit: "query" });
    const base = trigger([
      [3, 3],
      [3, 3],
      [3, 3],
      [3, 3],
      [3, 3],
      [0, 13],
    ]);
    const v = decideSkillVerdict(
      input({ thresholds: { triggerRecall: 0.8 }, trigger: head, baseFigures: { trigger: base } }),
    );
    expect(v.verdict).toBe("pass");
    expect(v.roots).toEqual([]);
  });

  it("counts a flaky case's confirmation trials in its own rate only", () => {
    // Nine steady cases pass 3/3; a flaky one passed 18 of 36 confirmation trials: pooled 45/63 = 71 %.
    const d = discriminator([...Array.from({ length: 9 }, () => [3, 3] as [number, number]), [18, 36]], []);
    expect(d.skill.discriminatorPassRate.rate).toBeCloseTo(9.5 / 10, 10);
    expect(d.skill.discriminatorPassRate).toMatchObject({ units: 10, passing: 10, trials: 63, unit: "case" });
  });
});

describe("thresholds judged with their uncertainty and against the base", () => {
  const broken = () =>
    trigger([
      [0, 3],
      [0, 3],
      [0, 3],
      [0, 3],
      [0, 3],
      [3, 3],
    ]);
  const healthy = () =>
    trigger([
      [3, 3],
      [3, 3],
      [3, 3],
      [3, 3],
      [3, 3],
      [3, 3],
    ]);

  it("blocks a head confidently below a threshold the base meets, with both figures and intervals", () => {
    const v = decideSkillVerdict(
      input({ thresholds: { triggerRecall: 0.8 }, trigger: broken(), baseFigures: { trigger: healthy() } }),
    );
    expect(v.verdict).toBe("fail");
    expect(v.blockingRoots).toHaveLength(1);
    const r = v.blockingRoots[0]!;
    expect(r).toMatchObject({ id: "threshold/triggerRecall", status: "new", file: META, line: 2 });
    expect(r.message).toMatch(
      /measured 0\.167 \[0\.\d+–0\.\d+\] over 6 queries; base 1\.000 \[0\.\d+–1\.000\] over 6 queries\. Below it with 99 % confidence, while the base meets it/,
    );
  });

  it("reports, without blocking, a threshold the base misses too (pre-existing)", () => {
    const v = decideSkillVerdict(
      input({ thresholds: { triggerRecall: 0.8 }, trigger: broken(), baseFigures: { trigger: broken() } }),
    );
    expect(v.verdict).toBe("pass");
    expect(v.roots[0]).toMatchObject({
      id: "threshold/triggerRecall",
      status: "pre-existing",
      blocking: false,
    });
  });

  it("reports, without blocking, a head under the threshold by its point figure only", () => {
    // 0.75 over 4 cases of 3 trials: its interval reaches far above 0.8.
    const d = discriminator(
      [
        [3, 3],
        [3, 3],
        [3, 3],
        [0, 3],
      ],
      [
        [0, 3],
        [0, 3],
        [0, 3],
        [0, 3],
      ],
    );
    const v = decideSkillVerdict(input({ thresholds: { discriminatorPassRate: 0.8 }, discriminator: d }));
    expect(v.verdict).toBe("pass");
    expect(v.roots[0]).toMatchObject({ status: "not-significant", blocking: false });
    expect(v.roots[0]!.title).toMatch(/not with confidence/);
  });

  it("blocks a new skill (no base) that is confidently below, head-only", () => {
    const v = decideSkillVerdict(input({ thresholds: { triggerRecall: 0.8 }, trigger: broken() }));
    expect(v.verdict).toBe("fail");
    expect(v.blockingRoots[0]).toMatchObject({ status: "head-only", id: "threshold/triggerRecall" });
  });

  it("judges precision as the should-fire queries' share of the fire rates", () => {
    const t = trigger(
      [
        [3, 3],
        [3, 3],
      ],
      [
        [3, 3],
        [3, 3],
        [3, 3],
        [3, 3],
        [3, 3],
        [3, 3],
      ],
    );
    expect(t.precision.rate).toBeCloseTo(0.25, 10);
    const v = decideSkillVerdict(
      input({
        thresholds: { triggerPrecision: 0.8 },
        trigger: t,
        baseFigures: {
          trigger: trigger(
            [
              [3, 3],
              [3, 3],
            ],
            [[0, 3]],
          ),
        },
      }),
    );
    expect(v.blockingRoots.map((r) => r.id)).toEqual(["threshold/triggerPrecision"]);
  });

  it("a figure neither arm can measure is pre-existing; one only the head cannot is blocking", () => {
    const never = trigger([[0, 3]], [[0, 3]]);
    const pre = decideSkillVerdict(
      input({ thresholds: { triggerPrecision: 0.8 }, trigger: never, baseFigures: { trigger: never } }),
    );
    expect(pre.roots[0]).toMatchObject({ status: "pre-existing", blocking: false });
    const fresh = decideSkillVerdict(
      input({ thresholds: { triggerPrecision: 0.8 }, trigger: never, baseFigures: { trigger: healthy() } }),
    );
    expect(fresh.blockingRoots[0]).toMatchObject({ id: "threshold/triggerPrecision", blocking: true });
  });
});

describe("Hoeffding's bound on per-unit figures", () => {
  /** Binomial draw with a seeded generator. */
  const draw = (rand: () => number, p: number, n: number) => {
    let k = 0;
    for (let i = 0; i < n; i++) if (rand() < p) k++;
    return k;
  };

  it("is confidently below a threshold at most α of the time when the true figure meets it", () => {
    const rand = seededRandom(20261207);
    const alpha = 0.05;
    // Unit rates whose mean is exactly the threshold, unequal trial counts (as confirmation leaves them).
    const rates = [1, 1, 0.9, 0.8, 0.5, 0.6];
    const sizes = [3, 3, 5, 9, 36, 3];
    const t = rates.reduce((a, b) => a + b, 0) / rates.length;
    let below = 0;
    const runs = 4000;
    for (let r = 0; r < runs; r++) {
      const units = rates.map((p, i) => ({ id: `${i}`, passed: draw(rand, p, sizes[i]!), total: sizes[i]! }));
      if (confidentlyBelow({ kind: "mean", unit: "case", units }, t, alpha)) below++;
    }
    expect(below / runs).toBeLessThanOrEqual(alpha);
  });

  it("gives intervals that hold the point figure, for means, lifts and precision", () => {
    const rand = seededRandom(7);
    for (let r = 0; r < 300; r++) {
      const unit = (i: number) => {
        const total = 1 + Math.floor(rand() * 12);
        return { id: `${i}`, passed: Math.floor(rand() * (total + 1)), total };
      };
      const n = 1 + Math.floor(rand() * 6);
      const a = Array.from({ length: n }, (_, i) => unit(i));
      const b = Array.from({ length: n }, (_, i) => unit(i));
      const figures: FigureUnits[] = [
        { kind: "mean", unit: "query", units: a },
        { kind: "lift", skill: a, baseline: b },
        { kind: "precision", fire: a, nofire: b },
      ];
      for (const f of figures) {
        const v = figureValue(f);
        if (v === undefined) continue;
        const { low, high } = figureInterval(f);
        expect(low).toBeLessThanOrEqual(v + 1e-9);
        expect(high).toBeGreaterThanOrEqual(v - 1e-9);
      }
    }
  });
});
