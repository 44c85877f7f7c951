import { describe, expect, it } from "vitest";
import type { TrialError } from "../../src/model/index.js";
import { FIRST_TRIALS_WATCHED, FirstFailureWatch, fixFor, headline } from "../../src/run/first-failures.js";

const crash = (path: string): TrialError => ({
  kind: "crash",
  message: `agent command exited with code 1: Error: Cannot find module '/dev/shm/skillgate-trial-${path}/agent.mjs'`,
});
const watch = () => new FirstFailureWatch(() => "the fix");

describe("FirstFailureWatch", () => {
  it("stops once the first trials all failed alike, trial-specific paths aside, naming the failure and the fix", () => {
    const w = watch();
    for (let i = 0; i < FIRST_TRIALS_WATCHED - 1; i++) w.observe(crash(`abc${i}/${i}`));
    expect(w.stopped).toBeUndefined();
    w.observe(crash("zz9/7"));
    expect(w.stopped?.kind).toBe("crash");
    expect(w.stopped?.reason).toMatch(
      /first 3 trials all failed the same way[\s\S]*Cannot find module[\s\S]*fix: the fix/,
    );
  });

  it("never stops on successes, different failures, findings (contaminated) or transient faults (timeouts)", () => {
    const ok = watch();
    ok.observe(crash("a"));
    ok.observe(undefined);
    for (let i = 0; i < 5; i++) ok.observe(crash("b"));
    expect(ok.stopped).toBeUndefined();

    const transient = watch();
    for (let i = 0; i < 5; i++)
      transient.observe({ kind: "timeout", message: "did not finish within 1000 ms", transient: true });
    expect(transient.stopped).toBeUndefined();

    const mixed = watch();
    mixed.observe(crash("a"));
    mixed.observe({ kind: "timeout", message: "agent command did not finish within 1000 ms" });
    for (let i = 0; i < 5; i++) mixed.observe(crash("b"));
    expect(mixed.stopped).toBeUndefined();

    const finding = watch();
    finding.observe({ kind: "contaminated", message: "baseline trial touched skill" });
    for (let i = 0; i < 5; i++) finding.observe(crash("c"));
    expect(finding.stopped).toBeUndefined();
  });
});

describe("fixFor", () => {
  const command = { adapter: "command", command: "node agent/agent.mjs" };
  it("names where relative command words resolve for a missing file", () => {
    expect(fixFor(crash("a"), command, "/repo")).toMatch(/relative paths resolve from .*\/repo/);
  });
  it("names a missing program the command starts, not the command's own paths (a shim's manager)", () => {
    const message =
      "agent command exited with code 127: /root/.pyenv/shims/python3: line 12: /root/.pyenv/libexec/pyenv: No such file or directory";
    const fix = fixFor({ kind: "crash", message }, { adapter: "command", command: "python3 a.py" }, "/tmp/b");
    expect(fix).toMatch(/starts \/root\/\.pyenv\/libexec\/pyenv, which does not exist where the agent runs/);
    expect(fix).not.toMatch(/a path in agent\.command names nothing/);
  });
  it("names the key for an authentication failure, the schema for a protocol error", () => {
    expect(
      fixFor({ kind: "crash", message: "model API answered 401: invalid x-api-key" }, command, "/r"),
    ).toMatch(/ANTHROPIC_API_KEY/);
    expect(
      fixFor({ kind: "protocol", message: 'JSON reply lacks a string "output"' }, command, "/r"),
    ).toMatch(/command-reply\.schema\.json/);
  });
});

describe("headline", () => {
  it("keeps a stack trace's first line and its error line", () => {
    expect(
      headline("exited with code 1: loader:1210\n  throw err;\n\nError: Cannot find module 'x'\n at y"),
    ).toBe("exited with code 1: loader:1210 … Error: Cannot find module 'x'");
  });
});
