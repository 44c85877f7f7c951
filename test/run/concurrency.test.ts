import { describe, expect, it } from "vitest";
import { defaultAgentConcurrency } from "../../src/settings/concurrency.js";

const GIB = 1024 ** 3;

describe("defaultAgentConcurrency", () => {
  it("follows the runner: many agents per core, bounded by memory and a cap", () => {
    // GitHub's hosted runners: private repositories 2 cores / 7 GiB, public 4 cores / 16 GiB.
    expect(defaultAgentConcurrency({ cpus: 2, memoryBytes: 7 * GIB })).toBe(18);
    expect(defaultAgentConcurrency({ cpus: 4, memoryBytes: 16 * GIB })).toBe(32);
    expect(defaultAgentConcurrency({ cpus: 64, memoryBytes: 256 * GIB })).toBe(32);
    expect(defaultAgentConcurrency({ cpus: 1, memoryBytes: 0.5 * GIB })).toBe(2);
  });
});
