import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

// The trial cache defaults to the user's cache folder (never the checkout): give each test run a fresh one, so
// no run sees answers another run cached and nothing is left in the real home folder.
const cacheHome = mkdtempSync(join(tmpdir(), "sg-test-xdg-"));

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "gates/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
    env: { XDG_CACHE_HOME: cacheHome },
  },
});
