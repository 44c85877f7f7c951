import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { emptyResult } from "../../src/agents/result.js";
import {
  type CacheService,
  restoreTrialCache,
  saveTrialCache,
  trialCacheKeys,
} from "../../src/github/cache-actions.js";
import { TrialCache } from "../../src/run/cache.js";
import { recordingLogger } from "../support/trials.js";

/** Stand-in for the Actions cache service, which exists only on GitHub's runners: records calls, restores a fixture. */
function fakeService(
  opts: { available?: boolean; restore?: (dir: string) => string | undefined; failSave?: boolean } = {},
) {
  const calls: { op: string; key: string; restoreKeys?: string[] }[] = [];
  const service: CacheService = {
    isFeatureAvailable: () => opts.available ?? true,
    restoreCache: async (paths, key, restoreKeys) => {
      calls.push({ op: "restore", key, restoreKeys });
      return opts.restore?.(paths[0]!);
    },
    saveCache: async (_paths, key) => {
      calls.push({ op: "save", key });
      if (opts.failSave)
        throw new Error("Unable to reserve cache with key, another job may be creating this cache.");
      return 1;
    },
  };
  return { service, calls };
}

describe("Actions trial cache", () => {
  test("keys: unique per run, restored by prefix", () => {
    const k = trialCacheKeys({ scope: "abc" }, { GITHUB_RUN_ID: "42", GITHUB_RUN_ATTEMPT: "2" });
    expect(k.primary).toBe("skillgate-trials-v2-abc-42-2");
    expect(k.restoreKeys).toEqual(["skillgate-trials-v2-abc-"]);
  });

  test("restores, then saves only when the run added entries", async () => {
    const dir = mkdtempSync(join(tmpdir(), "actions-cache-"));
    const logger = recordingLogger();
    const { service, calls } = fakeService({
      restore: (d) => {
        mkdirSync(join(d, "ab"), { recursive: true });
        writeFileSync(join(d, "ab", "abc.json"), "{}");
        return "skillgate-trials-v2-s-1-1";
      },
    });
    const state = await restoreTrialCache(dir, logger, { scope: "s", runId: "2-1" }, service);
    expect(state).toEqual({ entriesAfterRestore: 1, restoredKey: "skillgate-trials-v2-s-1-1" });
    expect(await saveTrialCache(dir, state, logger, { scope: "s", runId: "2-1" }, service)).toBeUndefined();
    await new TrialCache(dir).put("cd".padEnd(64, "0"), "id", { ...emptyResult(), output: "x" });
    expect(await saveTrialCache(dir, state, logger, { scope: "s", runId: "2-1" }, service)).toBe(
      "skillgate-trials-v2-s-2-1",
    );
    expect(calls.map((c) => c.op)).toEqual(["restore", "save"]);
  });

  test("service faults are warnings, never failures", async () => {
    const dir = mkdtempSync(join(tmpdir(), "actions-cache-"));
    const logger = recordingLogger();
    const { service } = fakeService({ failSave: true });
    const state = await restoreTrialCache(dir, logger, {}, service);
    await new TrialCache(dir).put("ef".padEnd(64, "0"), "id", { ...emptyResult(), output: "x" });
    expect(await saveTrialCache(dir, state, logger, {}, service)).toBeUndefined();
    expect(logger.lines.some((l) => l.startsWith("warn: trial cache: save failed"))).toBe(true);
  });

  test("without the service (local runs) nothing is called", async () => {
    const dir = mkdtempSync(join(tmpdir(), "actions-cache-"));
    const { service, calls } = fakeService({ available: false });
    const state = await restoreTrialCache(dir, recordingLogger(), {}, service);
    expect(state.entriesAfterRestore).toBe(0);
    expect(calls).toEqual([]);
  });
});

describe("main's results are the base: a pull request's run only reads", () => {
  const main = (d: string) => {
    mkdirSync(join(d, "ab"), { recursive: true });
    writeFileSync(join(d, "ab", "abc.json"), "{}");
    return "skillgate-trials-v2-default-900-1";
  };

  test("a read-only run restores the base's entries and never saves", async () => {
    const dir = mkdtempSync(join(tmpdir(), "actions-cache-"));
    const logger = recordingLogger();
    const { service, calls } = fakeService({ restore: main });
    const access = { kind: "read-only" as const, verify: async () => undefined };
    const state = await restoreTrialCache(dir, logger, {}, service, access);
    expect(state.restoredKey).toBe("skillgate-trials-v2-default-900-1");
    await new TrialCache(dir).put("cd".padEnd(64, "0"), "id", { ...emptyResult(), output: "x" });
    expect(await saveTrialCache(dir, state, logger, {}, service, access)).toBeUndefined();
    expect(calls.map((c) => c.op)).toEqual(["restore"]);
  });

  test("a PR ref holding a skillgate cache (or one that cannot be listed) restores nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "actions-cache-"));
    const logger = recordingLogger();
    const { service, calls } = fakeService({ restore: main });
    const state = await restoreTrialCache(dir, logger, {}, service, {
      kind: "read-only",
      verify: async () => "1 cache(s) under refs/pull/7/merge carry skillgate's key",
    });
    expect(state).toEqual({ entriesAfterRestore: 0 });
    expect(calls).toEqual([]);
    expect(logger.lines.some((l) => /not restored: 1 cache\(s\) under refs\/pull\/7\/merge/.test(l))).toBe(
      true,
    );
  });

  test("a cache planted while the restore ran is discarded with what was restored", async () => {
    const parent = mkdtempSync(join(tmpdir(), "actions-cache-"));
    const dir = join(parent, "trials");
    const logger = recordingLogger();
    const { service } = fakeService({ restore: main });
    let checks = 0;
    const state = await restoreTrialCache(dir, logger, {}, service, {
      kind: "read-only",
      verify: async () => (checks++ === 0 ? undefined : "planted meanwhile"),
    });
    expect(state).toEqual({ entriesAfterRestore: 0 });
    expect(await new TrialCache(dir).get("abc")).toBeUndefined();
  });
});
