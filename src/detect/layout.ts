import { posix } from "node:path";
import type { SkillLayout } from "../model/index.js";
import type { ListedPlugin } from "./marketplace.js";
import { CODEX_PLUGIN_MANIFEST, pluginDirOf } from "./repo-files.js";

const isCodexManifest = (m: string) => m.endsWith(CODEX_PLUGIN_MANIFEST);

/**
 * A Claude Code or Codex plugin: its folder and the namespace its skills are named in (`<plugin>:<skill>`, in both
 * clients: Codex names a skill by the nearest plugin manifest above it).
 */
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
 * The plugins of a repository: every plugin a `marketplace.json` lists from this checkout (see `readMarketplace`),
 * every other folder holding `.claude-plugin/plugin.json` or `.codex-plugin/plugin.json` (named by its `name`, else
 * by the folder), and every
 * `plugins/<plugin>/` folder with skills in `skills/` (a marketplace's layout). A listed plugin is named and
 * given skill paths as Claude Code does: with `strict` (the default) its plugin.json's `name` and `skills` count
 * and the entry's `skills` add to them; with `strict: false` the entry is the whole definition. Several plugins
 * may share a folder (entries with `source: "./"`).
 */
export function findPlugins(
  manifests: readonly string[],
  skillFiles: readonly string[],
  readManifest: (file: string) => PluginManifest,
  listed: readonly ListedPlugin[] = [],
): PluginRoot[] {
  const plugins: PluginRoot[] = [];
  const under = (dir: string, p: string) => (dir === "." ? p : `${dir}/${p}`);
  const manifestOf = new Map<string, PluginManifest>();
  // A folder with both manifests: Claude Code reads `.claude-plugin/`, Codex `.codex-plugin/` first; the Claude
  // one names the plugin here (the default target), as it did before Codex manifests were read.
  for (const m of manifests)
    if (!manifestOf.has(pluginDirOf(m)) || !isCodexManifest(m))
      manifestOf.set(pluginDirOf(m), readManifest(m));
  const declared = (dir: string, manifest: PluginManifest | undefined) =>
    (manifest?.skills ?? [])
      .map((p) => posix.normalize(p.replace(/^\$\{CLAUDE_PLUGIN_ROOT\}\/?/, "")).replace(/\/+$/, ""))
      .filter((p) => p !== "" && !p.startsWith("../") && !posix.isAbsolute(p))
      .map((p) => (p === "." ? dir : under(dir, p)));
  const named = (manifest: PluginManifest | undefined, fallback: string) =>
    manifest?.name && PLUGIN_NAME.test(manifest.name) ? manifest.name : fallback;
  for (const entry of listed) {
    const manifest = entry.strict ? manifestOf.get(entry.dir) : undefined;
    const fallback = !entry.codex && PLUGIN_NAME.test(entry.name) ? entry.name : posix.basename(entry.dir);
    const paths = [under(entry.dir, "skills"), ...declared(entry.dir, manifest), ...(entry.skills ?? [])];
    plugins.push({ dir: entry.dir, name: named(manifest, fallback), skillPaths: [...new Set(paths)] });
  }
  const seen = new Set(plugins.map((p) => p.dir));
  for (const [dir, manifest] of manifestOf) {
    if (seen.has(dir)) continue;
    seen.add(dir);
    const paths = [under(dir, "skills"), ...declared(dir, manifest)];
    plugins.push({ dir, name: named(manifest, posix.basename(dir)), skillPaths: [...new Set(paths)] });
  }
  for (const f of skillFiles) {
    if (!f.includes("plugins/")) continue;
    const m = /^(?:(.*)\/)?plugins\/([^/]+)\/skills\/[^/]+\/[^/]+$/.exec(f);
    if (!m) continue;
    const dir = m[1] ? `${m[1]}/plugins/${m[2]}` : `plugins/${m[2]}`;
    if (seen.has(dir)) continue;
    seen.add(dir);
    plugins.push({ dir, name: m[2]!, skillPaths: [`${dir}/skills`] });
  }
  // Deepest first: a skill belongs to its nearest plugin (a stable sort keeps the marketplace's order).
  return plugins.sort((a, b) => b.dir.length - a.dir.length || (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
}

/** Whether skill folder `dir` is one of the plugin's skills: in one of its skill paths, or one itself. */
function inSkillPaths(plugin: PluginRoot, dir: string): boolean {
  const parent = posix.dirname(dir);
  return plugin.skillPaths.some((p) => p === dir || p === parent);
}

/** The plugins by folder, in `plugins`' order: built once per list, so a skill looks up its ancestors only. */
const byFolder = new WeakMap<readonly PluginRoot[], Map<string, PluginRoot[]>>();

/** The plugins whose folder holds `dir` (deepest first, as `findPlugins` orders them). */
function pluginsAbove(dir: string, plugins: readonly PluginRoot[]): PluginRoot[] {
  let index = byFolder.get(plugins);
  if (!index) {
    index = new Map();
    for (const p of plugins) {
      const list = index.get(p.dir);
      if (list) list.push(p);
      else index.set(p.dir, [p]);
    }
    byFolder.set(plugins, index);
  }
  const out: PluginRoot[] = [];
  for (let d = posix.dirname(dir); ; d = posix.dirname(d)) {
    out.push(...(index.get(d) ?? []));
    if (d === "." || d === "/") break;
  }
  return out;
}

/**
 * Where a skill folder sits, and the plugin namespace it is named in. A folder several plugins load (marketplace
 * entries sharing a source: each loads its default `skills/` too) is gated once, named by the nearest plugin
 * that lists the folder itself, else by the nearest one; `alsoIn` names the others.
 */
export function skillLayout(
  dir: string,
  plugins: readonly PluginRoot[],
): { layout: SkillLayout; namespace?: string; pluginDir?: string; alsoIn?: string[] } {
  if (dir === ".") return { layout: "root" };
  const holders = pluginsAbove(dir, plugins).filter((p) => inSkillPaths(p, dir));
  const plugin = holders.find((p) => p.skillPaths.includes(dir)) ?? holders[0];
  if (plugin) {
    const alsoIn = [...new Set(holders.filter((p) => p.name !== plugin.name).map((p) => p.name))];
    return {
      layout: "plugin",
      namespace: plugin.name,
      pluginDir: plugin.dir,
      ...(alsoIn.length ? { alsoIn } : {}),
    };
  }
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
