/**
 * Policy comes from the base. In a pull request the PR's own `.skillgate.yml` is untrusted: the run is judged
 * under the base commit's configuration, and what the PR changes in it is compared key by key (`./policy-diff.ts`):
 * a loosening is a blocking `policy-weakened` finding, a tightening or a change of cost is reported only.
 */

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { configSchema } from "../detect/schemas.js";
import { parseSourceFile, type SourceFile } from "../detect/source-file.js";
import { validateAgainst } from "../detect/validate.js";
import { type Diagnostic, InputError, type SkillgateConfig, type SourceLocation } from "../model/index.js";
import { judgeIsAgentWarnings } from "./judge-independence.js";
import { diffPolicies, type PolicyChange, type PolicyDefaults } from "./policy-diff.js";

export const CONFIG_FILES = [".skillgate.yml", ".skillgate.yaml"];

/** The maintainers' override label when the base config names none. */
export const DEFAULT_OVERRIDE_LABEL = "skillgate: allow-weakening";

/** Where configuration is read from: a folder (a checkout) or a commit of a git repository. */
export type ConfigTree = { kind: "dir"; dir: string } | { kind: "git"; repoDir: string; sha: string };

export interface LoadedConfig {
  config: SkillgateConfig;
  /** Repository-relative path of the file read, when there was one. */
  file?: string;
  source?: SourceFile;
  /** Syntax and schema problems, located. */
  diagnostics: Diagnostic[];
}

/** Text of a repository-relative file in a tree, or undefined when it is not there. */
function readTreeFile(tree: ConfigTree, rel: string): string | undefined {
  if (tree.kind === "dir") {
    const abs = join(tree.dir, rel);
    return existsSync(abs) ? readFileSync(abs, "utf8") : undefined;
  }
  try {
    return execFileSync("git", ["-C", tree.repoDir, "show", `${tree.sha}:${rel.split("\\").join("/")}`], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch {
    return undefined;
  }
}

/**
 * Parses and validates the configuration of a tree: `rel` when given, else the first of CONFIG_FILES present.
 * Never throws: problems come back as diagnostics (the caller decides whether they are fatal).
 */
export function readConfig(tree: ConfigTree, rel?: string): LoadedConfig {
  for (const name of rel ? [rel] : CONFIG_FILES) {
    const text = readTreeFile(tree, name);
    if (text === undefined) continue;
    const src = parseSourceFile(name, text);
    const diagnostics: Diagnostic[] = [...src.diagnostics];
    if (src.value !== undefined && src.value !== null)
      diagnostics.push(...validateAgainst(configSchema, src.value, src, [], "config"));
    if (!diagnostics.some((d) => d.severity === "error"))
      diagnostics.push(...matrixProblems((src.value ?? {}) as SkillgateConfig, src));
    if (!diagnostics.some((d) => d.severity === "error"))
      diagnostics.push(...judgeIsAgentWarnings((src.value ?? {}) as SkillgateConfig, src));
    const valid = !diagnostics.some((d) => d.severity === "error");
    return {
      config: valid ? ((src.value ?? {}) as SkillgateConfig) : {},
      file: name,
      source: src,
      diagnostics,
    };
  }
  return { config: {}, diagnostics: [] };
}

/** What the schema cannot say about `agents:`: names unique, and `agent` beside it would be ambiguous. */
function matrixProblems(config: SkillgateConfig, src: SourceFile): Diagnostic[] {
  const cells = config.agents ?? [];
  const out: Diagnostic[] = [];
  const at = (path: (string | number)[], message: string, code: string) =>
    out.push({ ...src.locateKey(path), severity: "error", message, code });
  if (config.agent && cells.length)
    at(
      ["agents"],
      "give either agent (one agent) or agents (a matrix of cells), not both",
      "config/agent-and-agents",
    );
  const seen = new Map<string, number>();
  cells.forEach((c, i) => {
    const first = seen.get(c.name);
    if (first !== undefined)
      at(
        ["agents", i, "name"],
        `cell name ${c.name} is used twice (agents[${first}] and agents[${i}])`,
        "config/duplicate-cell",
      );
    else seen.set(c.name, i);
  });
  if (cells.length && !cells.some((c) => c.required !== false))
    at(
      ["agents"],
      "every cell is required: false, so no cell could fail the check",
      "config/no-required-cell",
    );
  return out;
}

/** The trusted configuration: an invalid one is the maintainers' configuration error (exit 2), never ignored. */
export function readTrustedConfig(tree: ConfigTree, rel: string | undefined, where: string): LoadedConfig {
  if (rel && readTreeFile(tree, rel) === undefined)
    throw new InputError(`config file not found in ${where}: ${rel}`);
  const loaded = readConfig(tree, rel);
  if (loaded.diagnostics.some((d) => d.severity === "error"))
    throw new InputError(`invalid configuration in ${loaded.file} (${where})`, loaded.diagnostics);
  return loaded;
}

/** A configuration file given by path (the local operator's own, outside the repository). */
export function readConfigFile(path: string): LoadedConfig {
  if (!existsSync(path)) throw new InputError(`config file not found: ${path}`);
  const loaded = readConfig({ kind: "dir", dir: resolve(path, "..") }, path.split(/[\\/]/).pop()!);
  if (loaded.diagnostics.some((d) => d.severity === "error"))
    throw new InputError(`invalid configuration in ${path}`, loaded.diagnostics);
  return { ...loaded, file: path };
}

/** The repository-relative path of `config` when it names a file inside `repoDir`. */
export function repoRelative(repoDir: string, config: string): string | undefined {
  const abs = isAbsolute(config) ? config : resolve(repoDir, config);
  const rel = relative(repoDir, abs);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? undefined : rel.split("\\").join("/");
}

export type { PolicyChange, PolicyChangeKind } from "./policy-diff.js";

/**
 * Compares the PR's configuration with the base's, key by key (`./policy-diff.ts`). `head` undefined: the PR
 * deleted the file. `headSource` locates each finding on the PR's line; a removed key sits on line 1 of the PR's file.
 */
export function comparePolicies(
  base: LoadedConfig,
  head: LoadedConfig,
  defaults: PolicyDefaults,
): PolicyChange[] {
  const out: PolicyChange[] = [];
  const file = head.file ?? base.file ?? CONFIG_FILES[0]!;
  const loc = (path: (string | number)[]): SourceLocation =>
    head.source ? head.source.locateKey(path) : { file, line: 1, column: 1 };
  diffPolicies(
    base.config,
    head.config,
    (key, kind, message, path = key.split(".")) => {
      const at = loc(path);
      out.push({ id: `policy/${key}`, key, kind, message, file: at.file, line: at.line, column: at.column });
    },
    defaults,
  );
  return out;
}
