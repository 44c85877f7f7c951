import { describe, expect, it } from "vitest";
import { runFault } from "./fault-repo.js";

/**
 * Agent faults through the real pipeline (`skillgate run` in-process, command adapter): every fault yields
 * verdict `error` (exit 3), never a pass, with the error kind named; time is bounded by a 1 s trial timeout.
 */
/** Each run must end well inside this (the trial timeout is 1 s, retries included). */
const RUN_TEST_TIMEOUT_MS = 60_000;

describe("agent faults end in verdict error, never a pass", () => {
  it.each([
    ["hang", "timeout"],
    ["crash", "crash"],
    ["rate-limit", "crash"],
    ["garbage", "protocol"],
  ])(
    "%s → error (%s), exit 3",
    async (mode, kind) => {
      const { code, report } = await runFault(mode);
      expect(report.verdict).toBe("error");
      expect(code).toBe(3);
      const calc = report.skills.find((s) => s.name === "calc")!;
      expect(calc.errors.map((e) => e.kind)).toContain(kind);
      if (mode === "crash")
        expect(calc.errors.map((e) => e.message).join("\n")).toContain("segmentation fault");
      if (mode === "rate-limit") expect(calc.errors.map((e) => e.message).join("\n")).toContain("429");
    },
    RUN_TEST_TIMEOUT_MS,
  );

  it(
    "an agent exiting before it reads the prompt, printing nothing, is an error (protocol), exit 3",
    async () => {
      const { code, report } = await runFault("early-exit");
      expect(report.verdict).toBe("error");
      expect(code).toBe(3);
      expect(report.skills.find((s) => s.name === "calc")!.errors.map((e) => e.kind)).toContain("protocol");
    },
    RUN_TEST_TIMEOUT_MS,
  );

  it(
    "an agent claiming a skill that was never installed is an unregistered-skill error, exit 3",
    async () => {
      const { code, report } = await runFault("unregistered");
      expect(report.verdict).toBe("error");
      expect(code).toBe(3);
      expect(report.skills.find((s) => s.name === "calc")!.errors.map((e) => e.kind)).toContain(
        "unregistered-skill",
      );
    },
    RUN_TEST_TIMEOUT_MS,
  );

  it(
    "10 MB of output is cut, never graded (protocol error, exit 3), and the report stays small",
    async () => {
      // Writing 10 MB through a pipe on a loaded 2-core machine may take more than the 1 s used elsewhere.
      const { code, report, jsonBytes } = await runFault("huge", 20);
      expect(report.verdict).toBe("error");
      expect(code).toBe(3);
      expect(
        report.skills
          .find((s) => s.name === "calc")!
          .errors.map((e) => e.message)
          .join("\n"),
      ).toContain("cut");
      expect(jsonBytes).toBeLessThan(256 * 1024);
      // the output shown in messages is an excerpt, not megabytes
      for (const r of report.newRoots) expect(r.message.length).toBeLessThan(2000);
    },
    RUN_TEST_TIMEOUT_MS,
  );
});
