import { describe, expect, it } from "vitest";
import { bench } from "../../bench/verdict.js";

const run = async (flags: Record<string, string>) => {
  const lines: string[] = [];
  const figures = await bench({
    root: ".",
    tmp: ".",
    log: (l) => lines.push(l),
    flags,
    deadline: Number.POSITIVE_INFINITY,
  });
  return { figures, lines };
};

describe("bench/verdict", () => {
  it("gives the same figures for the same seed, other figures for another, and names the seed", async () => {
    const a = await run({ seed: "7", verdictPrs: "60" });
    const b = await run({ seed: "7", verdictPrs: "60" });
    const c = await run({ seed: "8", verdictPrs: "60" });
    expect(b.figures).toEqual(a.figures);
    expect(c.figures).not.toEqual(a.figures);
    expect(Object.keys(a.figures)).toEqual(
      expect.arrayContaining([
        "simulatedPrs",
        "aaFalseRegressionRate",
        "powerAt3Trials",
        "powerAt5Trials",
        "meanTrialsPerArm",
        "triggerPowerAt5Trials",
        "regressionInconclusiveRate",
        "suspectHeadTrials",
      ]),
    );
    expect(a.figures.simulatedPrs).toBe(480);
    expect(a.lines.join("\n")).toMatch(/seed 7/);
  });

  it("finds most regressions and few A/A false alarms (seeded, so the figures are fixed)", async () => {
    const { figures } = await run({ seed: "20261129", verdictPrs: "300" });
    expect(figures.aaFalseRegressionRate as number).toBeLessThanOrEqual(0.01);
    expect(figures.powerAt5Trials as number).toBeGreaterThanOrEqual(0.85);
    expect(figures.triggerPowerAt5Trials as number).toBeGreaterThanOrEqual(0.9);
    const warm = figures.warm as Record<string, number>;
    expect(warm.aaFalseRegressionRate).toBeLessThanOrEqual(0.01);
    expect(warm.powerAt5Trials).toBeGreaterThanOrEqual(0.85);
    // Wall time: no PR waits more than three confirmation rounds.
    expect((figures.confirmationRounds as Record<string, number>).max).toBeLessThanOrEqual(3);
    // The base arm is kept ahead of the head arm in confirmation looks.
    expect(figures.meanBaseTrialsPerArm as number).toBeGreaterThan(figures.meanTrialsPerArm as number);
  });

  it("rejects a bad PR count", async () => {
    await expect(run({ verdictPrs: "many" })).rejects.toThrow(/verdictPrs must be integers/);
  });
});
