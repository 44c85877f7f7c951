/**
 * The red-team and isolation tests check containment only where a sandbox can start; on a machine without
 * bubblewrap they return early. CI runs as root with bubblewrap installed (.ci/run), so there the full level must be
 * reached: otherwise every containment test above would pass having checked nothing.
 */
import { describe, expect, it } from "vitest";
import { findChromium } from "../../gates/contrast/chromium.js";
import { tracer } from "../../src/observe/tracer.js";
import { isolation } from "../../src/sandbox/isolation/detect.js";

describe.runIf(process.env.CI === "true")("on CI", () => {
  it("untrusted code runs at uid+namespaces, so the containment tests are not vacuous", async () => {
    expect(process.getuid?.()).toBe(0);
    expect((await isolation()).level).toBe("uid+namespaces");
  });

  it("strace is installed and can trace, so the observation tests (test/security/) are not vacuous", async () => {
    expect(await tracer()).toHaveProperty("tracer");
  });

  it("Chromium is installed, so the contrast gate's cascade tests run rather than skip", () => {
    expect(findChromium()).toBeDefined();
  });

  it("each run's tree is bounded by a cgroup there (root can make one), so the memory bombs are not vacuous", async () => {
    expect((await isolation()).resources.level).toMatch(/^cgroup v[12]$/);
  });
});
