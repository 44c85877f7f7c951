import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * `rel` (e.g. `src/sandbox/child.ts`) in the nearest ancestor of the first start folder that has it, then of the
 * next: how code running from source, from a bundle in `node_modules/.cache` or from `dist/` finds its files.
 */
export function findUpwards(rel: string, starts: string[]): string | undefined {
  for (const start of starts) {
    let dir = start;
    for (;;) {
      if (existsSync(join(dir, rel))) return join(dir, rel);
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  return undefined;
}
