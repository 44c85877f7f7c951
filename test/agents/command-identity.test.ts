import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { createAgent } from "../../src/agents/registry.js";
import "../../src/agents/index.js";

const dirs: string[] = [];
const scratch = (): string => {
  const d = mkdtempSync(join(tmpdir(), "sg-cmd-id-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A checkout holding the agent script at `agent/run.sh`, as a PR's base worktree would. */
function checkout(script: string): string {
  const dir = scratch();
  mkdirSync(join(dir, "agent"));
  writeFileSync(join(dir, "agent/run.sh"), script, { mode: 0o755 });
  return dir;
}

const identityIn = (repoDir: string, command: string) =>
  createAgent({ adapter: "command", command }, { repoDir }).identity();

describe("command agent identity", () => {
  test("is the same for the same script in two checkouts (a temporary worktree per run)", async () => {
    const script = "#!/bin/sh\necho 42\n";
    const a = await identityIn(checkout(script), "agent/run.sh --fast");
    const b = await identityIn(checkout(script), "agent/run.sh --fast");
    expect(a).toBe(b);
  });

  test("changes with the script's content, the words and the model", async () => {
    const one = checkout("#!/bin/sh\necho 42\n");
    const other = checkout("#!/bin/sh\necho 41\n");
    const base = await identityIn(one, "agent/run.sh");
    expect(await identityIn(other, "agent/run.sh")).not.toBe(base);
    expect(await identityIn(one, "agent/run.sh --fast")).not.toBe(base);
    expect(
      await createAgent(
        { adapter: "command", command: "agent/run.sh", model: "m2" },
        { repoDir: one },
      ).identity(),
    ).not.toBe(base);
  });

  test("a script given by absolute path is identified by its content too", async () => {
    const one = checkout("#!/bin/sh\necho 42\n");
    const two = checkout("#!/bin/sh\necho 42\n");
    expect(await identityIn(scratch(), join(one, "agent/run.sh"))).toBe(
      await identityIn(scratch(), join(two, "agent/run.sh")),
    );
  });
});
