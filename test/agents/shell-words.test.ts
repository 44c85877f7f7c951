import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveCommand } from "../../src/agents/shell-words.js";
import { writeRepo } from "../support/repo-files.js";

/** Command words resolve as a shell started in the repository would hand them over; the agent runs elsewhere. */
describe("resolveCommand", () => {
  const repo = writeRepo({ "agent/agent.mjs": "", "agent/lib/x.json": "{}", "run.sh": "", fast: "" });
  mkdirSync(join(repo, "empty"));
  writeFileSync(join(repo, "..", "sg-outside.mjs"), "");
  afterAll(() => {
    rmSync(repo, { recursive: true, force: true });
    rmSync(join(repo, "..", "sg-outside.mjs"), { force: true });
  });

  it("makes a script argument relative to the repository absolute (`node agent/agent.mjs`)", () => {
    expect(resolveCommand("node agent/agent.mjs --config agent/lib/x.json", repo)).toEqual({
      file: "node",
      args: [join(repo, "agent/agent.mjs"), "--config", join(repo, "agent/lib/x.json")],
    });
  });

  it("resolves a bare file name of the repository too (`python3 run.sh`), and `./` forms", () => {
    expect(resolveCommand("sh run.sh", repo).args).toEqual([join(repo, "run.sh")]);
    expect(resolveCommand("sh ./run.sh", repo).args).toEqual([join(repo, "run.sh")]);
    expect(resolveCommand("./run.sh", repo).file).toBe(join(repo, "run.sh"));
  });

  it("leaves flags, words naming nothing in the repository, absolute paths and the program on PATH alone", () => {
    expect(resolveCommand("node --fast agent/missing.mjs /usr/bin/env", repo)).toEqual({
      file: "node",
      args: ["--fast", "agent/missing.mjs", "/usr/bin/env"],
    });
  });

  it("never hands over the repository itself or what lies above it (they would be bound into the sandbox)", () => {
    expect(resolveCommand("node . .. ../sg-outside.mjs", repo).args).toEqual([
      ".",
      "..",
      "../sg-outside.mjs",
    ]);
  });

  it("resolves folders inside the repository", () => {
    expect(resolveCommand("agent-cli --skills empty", repo).args).toEqual(["--skills", join(repo, "empty")]);
  });
});
