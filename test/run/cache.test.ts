import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { AgentResult } from "../../src/model/index.js";
import { CACHE_FORMAT_VERSION, entryDigest, TrialCache } from "../../src/run/cache.js";
import { trialCacheDir } from "../../src/settings/resolve.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const fresh = () => {
  const d = mkdtempSync(join(tmpdir(), "sg-cache-"));
  dirs.push(d);
  return d;
};

const result = (output: string): AgentResult => ({
  output,
  toolCalls: [],
  skillsActivated: ["split-cents"],
  files: {},
  usage: { inputTokens: 10, outputTokens: 5, costUsd: 0.001 },
});
const KEY_A = `a1${"0".repeat(62)}`;
const KEY_B = `b2${"0".repeat(62)}`;
const pathOf = (dir: string, key: string) => join(dir, key.slice(0, 2), `${key}.json`);

describe("the trial cache binds each answer to its key", () => {
  it("serves what it stored, for that key and identity", async () => {
    const c = new TrialCache(fresh());
    await c.put(KEY_A, "command:abc", result("334 333 333"));
    expect((await c.get(KEY_A, "command:abc"))?.output).toBe("334 333 333");
  });

  it("a hand-edited answer is a miss (the digest no longer matches)", async () => {
    const dir = fresh();
    const c = new TrialCache(dir);
    await c.put(KEY_A, "command:abc", result("333 333 333"));
    const file = pathOf(dir, KEY_A);
    const entry = JSON.parse(readFileSync(file, "utf8"));
    entry.result.output = "334 333 333";
    writeFileSync(file, JSON.stringify(entry));
    expect(await c.get(KEY_A, "command:abc")).toBeUndefined();
  });

  it("a forged entry with a recomputed digest but another identity is a miss", async () => {
    const dir = fresh();
    const c = new TrialCache(dir);
    await c.put(KEY_A, "replay", result("334 333 333"));
    expect(await c.get(KEY_A, "command:abc")).toBeUndefined();
  });

  it("an entry moved under another key's name is a miss", async () => {
    const dir = fresh();
    const c = new TrialCache(dir);
    await c.put(KEY_A, "command:abc", result("334 333 333"));
    mkdirSync(join(dir, KEY_B.slice(0, 2)), { recursive: true });
    renameSync(pathOf(dir, KEY_A), pathOf(dir, KEY_B));
    expect(await c.get(KEY_B, "command:abc")).toBeUndefined();
  });

  it("an entry of an older format, or without a digest, is a miss", async () => {
    const dir = fresh();
    const c = new TrialCache(dir);
    mkdirSync(join(dir, KEY_A.slice(0, 2)), { recursive: true });
    writeFileSync(
      pathOf(dir, KEY_A),
      JSON.stringify({
        v: CACHE_FORMAT_VERSION - 1,
        key: KEY_A,
        identity: "command:abc",
        result: result("x"),
      }),
    );
    expect(await c.get(KEY_A, "command:abc")).toBeUndefined();
    writeFileSync(
      pathOf(dir, KEY_A),
      JSON.stringify({ v: CACHE_FORMAT_VERSION, key: KEY_A, identity: "command:abc", result: result("x") }),
    );
    expect(await c.get(KEY_A, "command:abc")).toBeUndefined();
    const r = result("x");
    writeFileSync(
      pathOf(dir, KEY_A),
      JSON.stringify({
        v: CACHE_FORMAT_VERSION,
        key: KEY_A,
        identity: "command:abc",
        result: r,
        digest: entryDigest(KEY_A, "command:abc", r),
      }),
    );
    expect((await c.get(KEY_A, "command:abc"))?.output).toBe("x");
  });
});

describe("where the trial cache lives", () => {
  it("never inside the checkout being judged", () => {
    const warnings: string[] = [];
    const logger = { warn: (m: string) => warnings.push(m) } as never;
    const env = { XDG_CACHE_HOME: "/var/cache/u" };
    expect(trialCacheDir("/work/repo", ".skillgate-cache", env, logger)).toBe(
      "/var/cache/u/skillgate/trials",
    );
    expect(trialCacheDir("/work/repo", "/work/repo/sub/cache", env, logger)).toBe(
      "/var/cache/u/skillgate/trials",
    );
    expect(warnings).toHaveLength(2);
    expect(trialCacheDir("/work/repo", "/srv/skillgate-cache", env, logger)).toBe("/srv/skillgate-cache");
    // `../repo-cache` is outside `repo`, though its name starts the same.
    expect(trialCacheDir("/work/repo", "../repo-cache", env, logger)).toBe("/work/repo-cache");
  });

  it("under Actions, in RUNNER_TEMP (restored from the Actions cache), never the workspace", () => {
    const env = { GITHUB_ACTIONS: "true", RUNNER_TEMP: "/home/runner/work/_temp" };
    expect(trialCacheDir("/home/runner/work/r/r", undefined, env)).toBe(
      "/home/runner/work/_temp/skillgate-trial-cache",
    );
  });
});
