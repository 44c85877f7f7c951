import { describe, expect, it } from "vitest";
import { bench } from "../../bench/verdict.js";

const run = async (flags: Record<string, string>) => {
  const lines: string[] = [];
  const figures = await bench({ root: ".", tmp: ".", log: (l) => lines.push(l), flags });
  return { figures, lines };
};

describe("bench/verdict", () => {
  it("gives the same figures for the same seed, other figures for another, and names the seed", async () => {
    const a = await run({ seed: "7", verdictPrs: "150" });
    const b = await run({ seed: "7", verdictPrs: "150" });
    const c = await run({ seed: "8", verdictPrs: "150" });
    expect(b.figures).toEqual(a.figures);
    expect(c.figures).not.toEqual(a.figures);
    expect(Object.keys(a.figures)).toEqual(
      expect.arrayContaining([
        "simulatedPrs",
        "aaFalseRegressionRate",
        "powerAt3Trials",
        "powerAt5Trials",
        "meanTrialsPerArm",
      ]),
    );
    expect(a.figures.simulatedPrs).toBe(450);
    expect(a.lines.join("\n")).toMatch(/seed 7/);
  });

  it("finds most regressions and few A/A false alarms (seeded, so the figures are fixed)", async () => {
    const { figures } = await run({ seed: "20261129", verdictPrs: "300" });
    expect(figures.aaFalseRegressionRate as number).toBeLessThanOrEqual(0.01);
    expect(figures.powerAt5Trials as number).toBeGreaterThanOrEqual(0.8);
    expect(figures.meanTrialsPerArm as number).toBeLessThanOrEqual(12);
  });

  it("rejects a bad PR count", async () => {
    await expect(run({ verdictPrs: "many" })).rejects.toThrow(/verdictPrs must be integers/);
  });
});
