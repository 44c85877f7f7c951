/**
 * Issue #33: the reason of a level the operator lowered reads as a sentence: root asking for `namespaces` said
 * "own uid (; SKILLGATE_ISOLATION=namespaces asks for no more)", an empty list of failures before the cap.
 */
import { describe, expect, it } from "vitest";
import { detectIsolation } from "../../src/sandbox/isolation/detect.js";

describe("the isolation reason when SKILLGATE_ISOLATION lowers the level", () => {
  it("names the switch without an empty clause before it", async () => {
    for (const cap of ["namespaces", "none"]) {
      const iso = await detectIsolation(cap);
      expect(iso.reason, cap).not.toMatch(/\(\s*;|;\s*\)|\(\s*\)/);
      if (iso.level === cap) expect(iso.reason).toContain(`SKILLGATE_ISOLATION=${cap} asks for no more`);
    }
  });
});
