import type { Diagnostic, SkillgateConfig } from "../model/index.js";
import { readConfigFile, readTrustedConfig, repoRelative } from "./policy.js";

export { CONFIG_FILES } from "./policy.js";

/**
 * Loads and validates a checkout's `.skillgate.yml` (or `explicit`) for the commands that read one tree
 * (`validate`); throws InputError with located diagnostics. Runs read their policy through `resolvePolicy`.
 */
export function loadConfig(
  repoDir: string,
  explicit?: string,
): { config: SkillgateConfig; file?: string; warnings: Diagnostic[] } {
  const rel = explicit ? repoRelative(repoDir, explicit) : undefined;
  const loaded =
    explicit && !rel
      ? readConfigFile(explicit)
      : readTrustedConfig({ kind: "dir", dir: repoDir }, rel, "the checkout");
  // A valid file's remaining diagnostics are warnings and notices (`config/judge-is-agent` …).
  return {
    config: loaded.config,
    ...(loaded.file ? { file: loaded.file } : {}),
    warnings: loaded.diagnostics,
  };
}
