/**
 * On-disk trial cache: one JSON file per cache key (`<dir>/<k0k1>/<key>.json`), so each trial of each case is
 * its own entry and the folder can be restored/saved whole by `@actions/cache`. Error records are never stored.
 *
 * Trust: the folder never lies inside the checkout being judged (`trialCacheDir`), and each entry is bound to its
 * key: it records the key, the adapter identity and a digest over both and the answer. An entry copied under
 * another key's name, edited by hand, or written for another agent is a miss, never an answer.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { AgentResult } from "../model/index.js";
import { outputRedactor } from "../util/redact.js";

/** Bump when the stored shape changes: old entries are then ignored, never misread (3: records carry `observed`). */
export const CACHE_FORMAT_VERSION = 3;

interface CacheEntry {
  v: number;
  key: string;
  identity: string;
  result: AgentResult;
  /** sha256 over the format version, key, identity and result: what binds the answer to its key. */
  digest: string;
}

/** The digest an entry must carry. */
export function entryDigest(key: string, identity: string, result: AgentResult): string {
  return createHash("sha256")
    .update(`skillgate-trial-cache\0${CACHE_FORMAT_VERSION}\0${key}\0${identity}\0`)
    .update(JSON.stringify(result))
    .digest("hex");
}

export class TrialCache {
  constructor(readonly dir: string) {}

  private path(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  /** The cached answer of `key` for this adapter identity, or undefined (a miss) when absent or not bound to it. */
  async get(key: string, identity?: string): Promise<AgentResult | undefined> {
    let text: string;
    try {
      text = await readFile(this.path(key), "utf8");
    } catch {
      return undefined;
    }
    try {
      const entry = JSON.parse(text) as CacheEntry;
      if (entry.v !== CACHE_FORMAT_VERSION || entry.key !== key || !entry.result || entry.result.error)
        return undefined;
      if (identity !== undefined && entry.identity !== identity) return undefined;
      if (entry.digest !== entryDigest(entry.key, entry.identity, entry.result)) return undefined;
      return entry.result;
    } catch {
      // A torn or foreign file is a miss, not a failure.
      return undefined;
    }
  }

  async put(key: string, identity: string, result: AgentResult): Promise<void> {
    if (result.error) return;
    const path = this.path(key);
    await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
    const { cached: _cached, ...unredacted } = result;
    // The cache may travel (Actions cache): what it stores is output too.
    const stored = outputRedactor().redactDeep(unredacted);
    const entry: CacheEntry = {
      v: CACHE_FORMAT_VERSION,
      key,
      identity,
      result: stored,
      digest: entryDigest(key, identity, stored),
    };
    // Write-then-rename: a concurrent reader sees the old entry or the new one, never half of it.
    const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await writeFile(tmp, JSON.stringify(entry));
    await rename(tmp, path);
  }
}
