/**
 * Restores and saves the on-disk trial cache with the GitHub Actions cache service. The only file of the run
 * stage that imports `@actions/cache`; the action entry calls `restoreTrialCache` before the pipeline and
 * `saveTrialCache` after it. Cache entries are immutable, so every run saves under its own key and restores
 * the newest entry by prefix; the cache folder only grows (entries are content-addressed, never stale).
 * Any cache-service fault is a warning: the run goes on without the cache rather than failing.
 *
 * Main's results are the base. GitHub scopes caches by ref: a run restores caches of its own ref, then of the base
 * branch and the default branch, and saves only under its own ref (a pull request's under refs/pull/N/merge). So a
 * run on a push to the default branch (or a schedule) saves its trials, and every PR's base arm finds them. A PR
 * can never write what the default branch reads; and a PR run saves nothing (`read-only`), because its own later
 * runs restore their own ref first and must not replay answers a workflow the PR controls could have planted.
 * Before restoring, a PR run checks (`verify`) that its ref holds no cache under skillgate's key, and restores
 * nothing when it cannot check.
 */
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import * as actionsCache from "@actions/cache";
import type { Logger } from "../model/index.js";
import { CACHE_FORMAT_VERSION } from "../run/cache.js";

/** What we use of `@actions/cache`; tests pass a stand-in (the real service exists only on GitHub's runners). */
export interface CacheService {
  isFeatureAvailable(): boolean;
  restoreCache(paths: string[], primaryKey: string, restoreKeys?: string[]): Promise<string | undefined>;
  saveCache(paths: string[], key: string): Promise<number>;
}

export interface CacheKeyContext {
  /** Distinguishes caches of different repositories' configs or agents, e.g. the adapter identity hash. */
  scope?: string;
  /** Unique per run: GITHUB_RUN_ID and GITHUB_RUN_ATTEMPT by default. */
  runId?: string;
}

export interface CacheState {
  /** Entries in the folder after restore: save only if the run added some. */
  entriesAfterRestore: number;
  restoredKey?: string;
}

/**
 * What a run may do with the Actions cache: a run of a branch (push, schedule, dispatch) restores and saves; a
 * pull request's run restores the base's entries and saves nothing. `verify` says why the PR's own ref cannot be
 * trusted (a skillgate cache found under it, or the list cannot be read), or undefined when it holds none.
 */
export type CacheAccess =
  | { kind: "read-write" }
  | { kind: "read-only"; verify: () => Promise<string | undefined> };

export function trialCacheKeys(ctx: CacheKeyContext = {}, env: NodeJS.ProcessEnv = process.env) {
  const prefix = `skillgate-trials-v${CACHE_FORMAT_VERSION}-${ctx.scope ?? "default"}-`;
  const runId = ctx.runId ?? `${env.GITHUB_RUN_ID ?? "local"}-${env.GITHUB_RUN_ATTEMPT ?? "1"}`;
  return { primary: `${prefix}${runId}`, restoreKeys: [prefix] };
}

/** Number of cache entries (`*.json`) in the folder. */
export async function countEntries(dir: string): Promise<number> {
  let n = 0;
  let shards: string[];
  try {
    shards = await readdir(dir);
  } catch {
    return 0;
  }
  for (const shard of shards) {
    try {
      n += (await readdir(join(dir, shard))).filter((f) => f.endsWith(".json")).length;
    } catch {
      // a file, not a shard folder
    }
  }
  return n;
}

export async function restoreTrialCache(
  dir: string,
  logger: Logger,
  ctx: CacheKeyContext = {},
  service: CacheService = actionsCache,
  access: CacheAccess = { kind: "read-write" },
): Promise<CacheState> {
  const { primary, restoreKeys } = trialCacheKeys(ctx);
  let restoredKey: string | undefined;
  if (!service.isFeatureAvailable()) {
    logger.info("trial cache: the Actions cache service is not available; starting from the local folder");
  } else {
    const distrust = access.kind === "read-only" ? await access.verify() : undefined;
    if (distrust) logger.warn(`trial cache: not restored: ${distrust}`);
    else
      try {
        restoredKey = await service.restoreCache([dir], primary, restoreKeys);
        logger.info(restoredKey ? `trial cache: restored ${restoredKey}` : "trial cache: no previous entry");
      } catch (e) {
        logger.warn(`trial cache: restore failed, continuing without it: ${(e as Error).message}`);
      }
    // A cache planted while the restore ran: what was restored may be it, so none of it is used.
    const after = restoredKey && access.kind === "read-only" ? await access.verify() : undefined;
    if (after) {
      logger.warn(`trial cache: discarding the restored ${restoredKey}: ${after}`);
      await rm(dir, { recursive: true, force: true });
      restoredKey = undefined;
    }
  }
  const entriesAfterRestore = await countEntries(dir);
  return { entriesAfterRestore, ...(restoredKey ? { restoredKey } : {}) };
}

/** Saves the folder under this run's key when the run added entries. Returns the key saved, if any. */
export async function saveTrialCache(
  dir: string,
  state: CacheState,
  logger: Logger,
  ctx: CacheKeyContext = {},
  service: CacheService = actionsCache,
  access: CacheAccess = { kind: "read-write" },
): Promise<string | undefined> {
  if (access.kind === "read-only") {
    logger.info("trial cache: a pull request's run saves nothing; the default branch's runs fill the cache");
    return undefined;
  }
  const now = await countEntries(dir);
  if (now <= state.entriesAfterRestore) {
    logger.info("trial cache: nothing new to save");
    return undefined;
  }
  if (!service.isFeatureAvailable()) return undefined;
  const { primary } = trialCacheKeys(ctx);
  try {
    await service.saveCache([dir], primary);
    logger.info(`trial cache: saved ${now - state.entriesAfterRestore} new entries as ${primary}`);
    return primary;
  } catch (e) {
    logger.warn(`trial cache: save failed: ${(e as Error).message}`);
    return undefined;
  }
}
