import { posix } from "node:path";
import type { SkillLayout } from "../model/index.js";
import { PLUGIN_MANIFEST } from "./repo-files.js";

/** A Claude Code plugin: its folder and the namespace its skills are named in (`<plugin>:<skill>`). */
export interface PluginRoot {
  dir: string;
  name: string;
  /**
   * Where its skills are (repository-relative): folders of skill folders, or skill folders themselves. The
   * default `skills/` and every path of the manifest's `skills` (custom paths add to the default, as in Claude
   * Code): a SKILL.md elsewhere under the plugin's folder is none of its skills.
   */
  skillPaths: string[];
}

/** What discovery reads of a plugin manifest. */
export interface PluginManifest {
  name?: string;
  /** `skills` of plugin.json: one path or a list, relative to the plugin's folder. */
  skills?: string[];
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
  readManifest: (file: string) => PluginManifest,
): PluginRoot[] {
  const roots = new Map<string, PluginRoot>();
  const under = (dir: string, p: string) => (dir === "." ? p : `${dir}/${p}`);
  for (const m of manifests) {
    const dir = m === PLUGIN_MANIFEST ? "." : m.slice(0, -(PLUGIN_MANIFEST.length + 1));
    const manifest = readManifest(m);
    const name = manifest.name && PLUGIN_NAME.test(manifest.name) ? manifest.name : posix.basename(dir);
    const declared = (manifest.skills ?? [])
      .map((p) => posix.normalize(p.replace(/^\$\{CLAUDE_PLUGIN_ROOT\}\/?/, "")).replace(/\/+$/, ""))
      .filter((p) => p !== "" && !p.startsWith("../") && !posix.isAbsolute(p))
      .map((p) => (p === "." ? dir : under(dir, p)));
    roots.set(dir, { dir, name, skillPaths: [...new Set([under(dir, "skills"), ...declared])] });
  }
  for (const f of skillFiles) {
    if (!f.includes("plugins/")) continue;
    const m = /^(?:(.*)\/)?plugins\/([^/]+)\/skills\/[^/]+\/[^/]+$/.exec(f);
    if (!m) continue;
    const dir = m[1] ? `${m[1]}/plugins/${m[2]}` : `plugins/${m[2]}`;
    if (!roots.has(dir)) roots.set(dir, { dir, name: m[2]!, skillPaths: [`${dir}/skills`] });
  }
  // Deepest first: a skill belongs to its nearest plugin.
  return [...roots.values()].sort((a, b) => b.dir.length - a.dir.length || (a.dir < b.dir ? -1 : 1));
}

/** Whether skill folder `dir` is one of the plugin's skills: in one of its skill paths, or one itself. */
function inSkillPaths(plugin: PluginRoot, dir: string): boolean {
  const parent = posix.dirname(dir);
  return plugin.skillPaths.some((p) => p === dir || p === parent);
}

/** Where a skill folder sits, and the plugin namespace it is named in. */
export function skillLayout(
  dir: string,
  plugins: readonly PluginRoot[],
): { layout: SkillLayout; namespace?: string } {
  if (dir === ".") return { layout: "root" };
  const plugin = plugins.find((p) => (p.dir === "." || dir.startsWith(`${p.dir}/`)) && inSkillPaths(p, dir));
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
