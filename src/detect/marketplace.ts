import { posix } from "node:path";
import type { Diagnostic, SourceLocation } from "../model/index.js";
import { CODEX_MARKETPLACE } from "./repo-files.js";
import { type PathSegment, parseSourceFile } from "./source-file.js";

/** A plugin that a marketplace lists from this checkout (a relative `source`). */
export interface ListedPlugin {
  /** The entry's `name` (the plugin's name unless its own plugin.json names it, see `findPlugins`). */
  name: string;
  /** The plugin's folder, repository-relative (`.` for the root). */
  dir: string;
  /** `strict` (default true): plugin.json is read too; false: the entry is the plugin's whole definition. */
  strict: boolean;
  /** The entry's `skills` paths, repository-relative, when it has that key. */
  skills?: string[];
  /** Listed by a Codex marketplace: the plugin is named by its plugin.json, else by its folder. */
  codex?: true;
}

export interface Marketplace {
  plugins: ListedPlugin[];
  diagnostics: Diagnostic[];
}

/** Outside the checkout: skillgate cannot read what the client would fetch. */
const remote = (client: string) =>
  `not in this checkout: ${client} fetches it when the plugin is installed, so its skills are not gated here`;
/** A Codex entry whose local source Codex refuses (already warned about). */
const REFUSED = Symbol("refused");

/**
 * The plugins a `.claude-plugin/marketplace.json` lists, as Claude Code resolves them: a `source` starting with
 * `./` is a folder relative to the marketplace root (the folder holding `.claude-plugin/`); a bare name is one
 * below `metadata.pluginRoot`; an object (`github`, `url`, `git-subdir`, `npm` …) is fetched from elsewhere (a
 * notice). A source or `skills` path that leaves the repository, or a folder that is not there, is a located
 * warning: Claude Code would refuse it, and the skills found around it are still gated. Never throws.
 */
export function readMarketplace(file: string, text: string, isDir: (rel: string) => boolean): Marketplace {
  const src = parseSourceFile(file, text);
  const diagnostics: Diagnostic[] = [];
  const warn = (
    path: PathSegment[],
    code: string,
    message: string,
    severity: Diagnostic["severity"] = "warning",
  ) => diagnostics.push({ ...src.locate(path), severity, code, message });
  if (src.value === undefined) {
    // Claude Code cannot load this marketplace either; the skills beside it are still found and gated.
    const first: SourceLocation = src.diagnostics[0] ?? src.at(0);
    diagnostics.push({
      ...first,
      severity: "warning",
      code: "marketplace/unparseable",
      message: `marketplace.json does not parse, so its plugins are not read: ${src.diagnostics[0]?.message ?? "not JSON"}`,
    });
    return { plugins: [], diagnostics };
  }
  const doc = src.value as { plugins?: unknown; metadata?: { pluginRoot?: unknown } };
  if (!Array.isArray(doc?.plugins)) {
    warn([], "marketplace/invalid", "marketplace.json has no `plugins` list: no plugin is read from it");
    return { plugins: [], diagnostics };
  }
  const codex = file === CODEX_MARKETPLACE || file.endsWith(`/${CODEX_MARKETPLACE}`);
  // The marketplace root: the folder holding `.claude-plugin/`, or `.agents/` for Codex.
  const root = posix.dirname(posix.dirname(codex ? posix.dirname(file) : file));
  const pluginRoot = typeof doc.metadata?.pluginRoot === "string" ? doc.metadata.pluginRoot : undefined;
  const plugins: ListedPlugin[] = [];
  doc.plugins.forEach((entry: unknown, i: number) => {
    const listed = readEntry(entry, ["plugins", i], {
      root,
      pluginRoot,
      isDir,
      warn,
      codex,
      client: codex ? "Codex" : "Claude Code",
    });
    if (listed) plugins.push(listed);
  });
  return { plugins, diagnostics };
}

interface EntryContext {
  /** A Codex marketplace: a local source is `./<path>` or `{"source": "local", "path": "./<path>"}`. */
  codex: boolean;
  /** Who reads it, in messages. */
  client: string;
  root: string;
  pluginRoot: string | undefined;
  isDir: (rel: string) => boolean;
  warn: (path: PathSegment[], code: string, message: string, severity?: Diagnostic["severity"]) => void;
}

/** One `plugins[]` entry: its folder in this checkout, or undefined (with a diagnostic) when it has none here. */
function readEntry(entry: unknown, at: PathSegment[], ctx: EntryContext): ListedPlugin | undefined {
  const e = (entry ?? {}) as { name?: unknown; source?: unknown; strict?: unknown; skills?: unknown };
  const name = typeof e.name === "string" ? e.name : undefined;
  const what = name ? `plugin \`${name}\`` : `plugins[${at[1]}]`;
  const source = ctx.codex ? codexLocalSource(e.source, [...at, "source"], what, ctx) : e.source;
  if (source === REFUSED) return undefined;
  if (source !== null && typeof source === "object") {
    const kind = (source as { source?: unknown }).source;
    ctx.warn(
      [...at, "source"],
      "marketplace/remote-source",
      `${what} comes from a ${typeof kind === "string" ? `\`${kind}\` ` : ""}source ${remote(ctx.client)}`,
      "notice",
    );
    return undefined;
  }
  if (typeof source !== "string" || !name) {
    ctx.warn(
      at,
      "marketplace/invalid",
      `${what} needs a \`name\` and a \`source\`: ${ctx.client} does not load it`,
    );
    return undefined;
  }
  const dir = sourceDir(source, ctx);
  if (dir.problem) {
    ctx.warn([...at, "source"], dir.problem.code, `${what}: ${dir.problem.message}`);
    return undefined;
  }
  const skills =
    e.skills === undefined || ctx.codex
      ? undefined
      : skillPaths(e.skills, dir.path, [...at, "skills"], what, ctx);
  return {
    name,
    dir: dir.path,
    strict: ctx.codex || e.strict !== false,
    ...(skills ? { skills } : {}),
    ...(ctx.codex ? { codex: true as const } : {}),
  };
}

/**
 * A Codex entry's local source as a `./` path (Codex's `resolve_local_plugin_source_path`): a string or a `local`
 * object's `path`, `.`/`./` (the marketplace root) or starting with `./`, with no `.` or `..` step; REFUSED (with a
 * warning) when Codex refuses it.
 * Any other object (a git `url`, a `git-subdir`) is returned as it is: fetched from elsewhere.
 */
function codexLocalSource(source: unknown, at: PathSegment[], what: string, ctx: EntryContext): unknown {
  const local = source as { source?: unknown; path?: unknown } | null;
  const path = typeof source === "string" ? source : local?.source === "local" ? local.path : undefined;
  if (path === undefined) return source;
  // The marketplace root itself: accepted since Codex 0.142 (openai/codex#28771).
  if (path === "." || path === "./") return ".";
  const rest = typeof path === "string" && path.startsWith("./") ? path.slice(2).replace(/\/+$/, "") : "";
  if (rest === "" || rest.split("/").some((step) => step === "." || step === ".." || step === "")) {
    ctx.warn(
      at,
      "marketplace/source-invalid",
      `${what}: local source ${JSON.stringify(path)} is refused by Codex (./, or a path under the marketplace root starting with ./, without . or .. steps)`,
    );
    return REFUSED;
  }
  return `./${rest}`;
}

type Resolved =
  | { path: string; problem?: undefined }
  | { path?: undefined; problem: { code: string; message: string } };

/** The folder a string `source` names, as Claude Code resolves it from the marketplace root. */
function sourceDir(source: string, ctx: EntryContext): Resolved {
  const relative = source === "." || source.startsWith("./") || source.startsWith("../");
  let base = ctx.root;
  if (!relative) {
    if (posix.isAbsolute(source) || /^[a-z][a-z0-9+.-]*:/i.test(source))
      return {
        problem: {
          code: "marketplace/source-outside",
          message: `source \`${source}\` is not a folder of this repository (a relative source starts with ./)`,
        },
      };
    if (ctx.pluginRoot === undefined)
      return {
        problem: {
          code: "marketplace/source-invalid",
          message: `source \`${source}\` neither starts with ./ nor has a \`metadata.pluginRoot\` to be found in; Claude Code refuses it`,
        },
      };
    const rootDir = inside(ctx.root, ctx.pluginRoot);
    if (rootDir === undefined)
      return {
        problem: {
          code: "marketplace/source-outside",
          message: `\`metadata.pluginRoot\` \`${ctx.pluginRoot}\` leaves the repository`,
        },
      };
    base = rootDir;
  }
  const path = inside(base, source);
  if (path === undefined)
    return {
      problem: {
        code: "marketplace/source-outside",
        message: `source \`${source}\` leaves the repository: never read`,
      },
    };
  if (!ctx.isDir(path))
    return {
      problem: {
        code: "marketplace/source-missing",
        message: `source \`${source}\` is no folder of this repository (${path}/): ${ctx.client}'s install would fail`,
      },
    };
  return { path };
}

/** An entry's `skills` (one path or a list, relative to the plugin's folder), repository-relative. */
function skillPaths(
  value: unknown,
  pluginDir: string,
  at: PathSegment[],
  what: string,
  ctx: EntryContext,
): string[] {
  const out: string[] = [];
  const list = Array.isArray(value) ? value : [value];
  list.forEach((p, i) => {
    const where = Array.isArray(value) ? [...at, i] : at;
    const problem = skillPathProblem(p, pluginDir, ctx);
    if (typeof problem === "string") out.push(problem);
    else ctx.warn(where, problem.code, `${what}: ${problem.message}`);
  });
  return out;
}

/** The folder one `skills` path names (repository-relative), or what is wrong with it. */
function skillPathProblem(
  p: unknown,
  pluginDir: string,
  ctx: EntryContext,
): string | { code: string; message: string } {
  if (typeof p !== "string") return { code: "marketplace/invalid", message: "a `skills` path is a string" };
  const path = inside(pluginDir, p.replace(/^\$\{CLAUDE_PLUGIN_ROOT\}\/?/, "./"));
  if (path === undefined)
    return {
      code: "marketplace/source-outside",
      message: `skills path \`${p}\` leaves the repository: never read`,
    };
  if (!ctx.isDir(path))
    return {
      code: "marketplace/source-missing",
      message: `skills path \`${p}\` is no folder of this repository (${path}/)`,
    };
  return path;
}

/** `rel` resolved against folder `base`, repository-relative without a trailing slash; undefined when it leaves. */
function inside(base: string, rel: string): string | undefined {
  if (posix.isAbsolute(rel)) return undefined;
  const joined = posix.normalize(posix.join(base, rel)).replace(/\/+$/, "");
  if (joined === ".." || joined.startsWith("../")) return undefined;
  return joined === "" ? "." : joined;
}
