import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import { configSchema } from "../detect/schemas.js";
import { parseSourceFile } from "../detect/source-file.js";
import { validateAgainst } from "../detect/validate.js";
import { type Diagnostic, InputError, type SkillgateConfig } from "../model/index.js";

export const CONFIG_FILES = [".skillgate.yml", ".skillgate.yaml"];

/** Loads and validates `.skillgate.yml` (or `explicit`); throws InputError with located diagnostics. */
export function loadConfig(repoDir: string, explicit?: string): { config: SkillgateConfig; file?: string } {
  const candidates = explicit ? [explicit] : CONFIG_FILES;
  for (const c of candidates) {
    const abs = isAbsolute(c) ? c : join(repoDir, c);
    if (!existsSync(abs)) {
      if (explicit) throw new InputError(`config file not found: ${c}`);
      continue;
    }
    const rel = relative(repoDir, abs).split("\\").join("/") || c;
    const src = parseSourceFile(rel, readFileSync(abs, "utf8"));
    const diagnostics: Diagnostic[] = [...src.diagnostics];
    if (src.value !== undefined && src.value !== null)
      diagnostics.push(...validateAgainst(configSchema, src.value, src, [], "config"));
    if (diagnostics.some((d) => d.severity === "error"))
      throw new InputError(`invalid configuration in ${rel}`, diagnostics);
    return { config: (src.value ?? {}) as SkillgateConfig, file: rel };
  }
  return { config: {} };
}
