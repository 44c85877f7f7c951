/** What a checkout says of its plugins: manifests, marketplaces, and a plugin's own `evals/` cases. */
import { join } from "node:path";
import type { Skill } from "../model/index.js";
import { readRegularFile } from "../util/read-file.js";
import type { DirIndex } from "./dir-index.js";
import { pluginEvalFormat } from "./formats/plugin-eval.js";
import type { PluginManifest, PluginRoot } from "./layout.js";
import { type Marketplace, readMarketplace } from "./marketplace.js";
import { CODEX_PLUGIN_MANIFEST } from "./repo-files.js";
import type { SuiteReader } from "./suite-context.js";
import type { SuiteRoot } from "./suite-roots.js";

/** The `name` and `skills` paths of a plugin manifest, where they are strings. */
export function readManifest(repoDir: string, rel: string): PluginManifest {
  try {
    const bytes = readRegularFile(join(repoDir, rel));
    const v: unknown = bytes ? JSON.parse(bytes.toString("utf8")) : undefined;
    if (!v || typeof v !== "object") return {};
    const { name, skills } = v as { name?: unknown; skills?: unknown };
    // Codex reads a `skills` path only as `./<path>` inside the plugin (manifest.rs `resolve_manifest_path`).
    const codex = rel.endsWith(CODEX_PLUGIN_MANIFEST);
    const paths = [skills]
      .flat()
      .filter((p): p is string => typeof p === "string")
      .filter((p) => !codex || (p.startsWith("./") && !p.split("/").includes("..")));
    return {
      ...(typeof name === "string" ? { name } : {}),
      ...(skills !== undefined ? { skills: paths } : {}),
    };
  } catch {
    return {};
  }
}

/**
 * A plugin's own `evals/` (Claude Code's `claude plugin eval` cases) is its one skill's suite: a plugin of several
 * skills tests them together, which is no one skill's verdict (its files get the unread-file notice).
 */
export function pluginEvalRoots(
  reader: SuiteReader,
  skills: readonly Skill[],
  plugins: readonly PluginRoot[],
): Map<Skill, SuiteRoot[]> {
  const out = new Map<Skill, SuiteRoot[]>();
  for (const p of plugins) {
    const evals = p.dir === "." ? "evals" : `${p.dir}/evals`;
    if (!reader.isDir(evals) || !pluginEvalFormat.detect(reader, evals)) continue; // no cases: nothing to say
    const own = skills.filter(
      (s) => s.namespace === p.name && (p.dir === "." || s.dir.startsWith(`${p.dir}/`)),
    );
    if (own.length === 1) out.set(own[0]!, [{ dir: evals, formats: ["claude-plugin-eval"] }]);
  }
  return out;
}

/** The plugins every marketplace.json of the checkout lists from it, with their located problems. */
export function readMarketplaces(repoDir: string, dirs: DirIndex, files: readonly string[]): Marketplace {
  const out: Marketplace = { plugins: [], diagnostics: [] };
  for (const file of files) {
    let bytes: Buffer | undefined;
    try {
      bytes = readRegularFile(join(repoDir, file));
    } catch {
      bytes = undefined;
    }
    if (!bytes) continue; // a link or a folder: Claude Code reads no marketplace there either
    const m = readMarketplace(file, bytes.toString("utf8"), (rel) => dirs.isDir(rel));
    out.plugins.push(...m.plugins);
    out.diagnostics.push(...m.diagnostics);
  }
  return out;
}
