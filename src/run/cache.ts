/**
 * On-disk trial cache: one JSON file per cache key (`<dir>/<k0k1>/<key>.json`), so each trial of each case is
 * its own entry and the folder can be restored/saved whole by `@actions/cache`. Error records are never stored.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { AgentResult } from "../model/index.js";

/** Bump when the stored shape changes: old entries are then ignored, never misread. */
export const CACHE_FORMAT_VERSION = 1;

interface CacheEntry {
  v: number;
  key: string;
  identity: string;
  result: AgentResult;
}

export class TrialCache {
  constructor(readonly dir: string) {}

  private path(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  async get(key: string): Promise<AgentResult | undefined> {
    let text: string;
    try {
      text = await readFile(this.path(key), "utf8");
    } catch {
      return undefined;
    }
    try {
      const entry = JSON.parse(text) as CacheEntry;
      if (entry.v !== CACHE_FORMAT_VERSION || entry.key !== key || entry.result.error) return undefined;
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
    const { cached: _cached, ...stored } = result;
    const entry: CacheEntry = { v: CACHE_FORMAT_VERSION, key, identity, result: stored };
    // Write-then-rename: a concurrent reader sees the old entry or the new one, never half of it.
    const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await writeFile(tmp, JSON.stringify(entry));
    await rename(tmp, path);
  }
}
