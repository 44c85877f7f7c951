import { posix } from "node:path";
import type { SkillLayout } from "../model/index.js";
import { PLUGIN_MANIFEST } from "./repo-files.js";

/** A Claude Code plugin: its folder and the namespace its skills are named in (`<plugin>:<skill>`). */
export interface PluginRoot {
  dir: string;
  name: string;
}

/** A folder name Claude Code accepts as a plugin name (kebab-case). */
const PLUGIN_NAME = /^[a-z0-9][a-z0-9._-]*$/i;

/**
 * The plugins of a repository: every folder holding `.claude-plugin/plugin.json` (named by its `name`, else by
 * the folder), and every `plugins/<plugin>/` folder with skills in `skills/` (a marketplace's plugins need no
 * manifest of their own when `marketplace.json` lists them).
 */
export function findPlugins(
  manifests: readonly string[],
  skillFiles: readonly string[],
  manifestName: (file: string) => string | undefined,
): PluginRoot[] {
  const roots = new Map<string, string>();
  for (const m of manifests) {
    const dir = m === PLUGIN_MANIFEST ? "." : m.slice(0, -(PLUGIN_MANIFEST.length + 1));
    const named = manifestName(m);
    roots.set(dir, named && PLUGIN_NAME.test(named) ? named : posix.basename(dir));
  }
  for (const f of skillFiles) {
    if (!f.includes("plugins/")) continue;
    const m = /^(?:(.*)\/)?plugins\/([^/]+)\/skills\/[^/]+\/[^/]+$/.exec(f);
    if (!m) continue;
    const dir = m[1] ? `${m[1]}/plugins/${m[2]}` : `plugins/${m[2]}`;
    if (!roots.has(dir)) roots.set(dir, m[2]!);
  }
  // Deepest first: a skill belongs to its nearest plugin.
  return [...roots]
    .map(([dir, name]) => ({ dir, name }))
    .sort((a, b) => b.dir.length - a.dir.length || (a.dir < b.dir ? -1 : 1));
}

/** Where a skill folder sits, and the plugin namespace it is named in. */
export function skillLayout(
  dir: string,
  plugins: readonly PluginRoot[],
): { layout: SkillLayout; namespace?: string } {
  if (dir === ".") return { layout: "root" };
  const plugin = plugins.find((p) => p.dir === "." || dir.startsWith(`${p.dir}/`));
  if (plugin) return { layout: "plugin", namespace: plugin.name };
  const parent = posix.dirname(dir);
  const parentName = posix.basename(parent);
  if (parentName.startsWith(".") && posix.basename(posix.dirname(parent)) === "skills")
    return { layout: "curated" };
  if (parentName === "skills") return { layout: "agent-skills" };
  return { layout: "grouped" };
}

/** `<plugin>:<name>` for a plugin's skill, else the name. */
export function qualifiedName(name: string, namespace: string | undefined): string {
  return namespace ? `${namespace}:${name}` : name;
}
