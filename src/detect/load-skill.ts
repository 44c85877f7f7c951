/** One SKILL.md read into a skill record: links resolved inside the repository, frontmatter parsed, name checked. */
import { realpathSync } from "node:fs";
import { isAbsolute, join, posix, relative, sep } from "node:path";
import type { Diagnostic, Skill, ValidationProfile } from "../model/index.js";
import { appendAll } from "../util/append.js";
import { readRegularFile } from "../util/read-file.js";
import type { DirIndex } from "./dir-index.js";
import { type PluginRoot, qualifiedName, skillLayout } from "./layout.js";
import { parseSkillFileOnce } from "./parse-once.js";
import { type ExpectedName, NAME_MAX, UNICODE_NAME_PATTERN } from "./skill-fields.js";
import { SkillFolder } from "./skill-folder.js";

/** The common case of a valid name, tested before the Unicode rule (discovery tests 10,000 of them). */
const ASCII_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export interface LoadContext {
  repoDir: string;
  profile: ValidationProfile;
  dirs: DirIndex;
  diagnostics: Diagnostic[];
  /** Every SKILL.md path found: a link to one of them is that skill again. */
  candidates: ReadonlySet<string>;
  /** The repository's real path, resolved when a link is met. */
  realRepo: string | undefined;
  plugins: readonly PluginRoot[];
  /** The repository's name, asked for only when a root skill is met. */
  repoName: () => string | undefined;
}

/** The skill at `path`, or undefined when there is no SKILL.md file there (a diagnostic when it cannot be read). */
export function loadSkill(ctx: LoadContext, path: string): Skill | undefined {
  const { repoDir, diagnostics } = ctx;
  const dir = posix.dirname(path);
  const problem = (severity: Diagnostic["severity"], code: string, message: string) =>
    diagnostics.push({ file: path, line: 1, column: 1, severity, code, message });
  let bytes: Buffer | "link" | undefined;
  try {
    bytes = readRegularFile(join(repoDir, path), { noFollow: true });
    if (bytes === "link") {
      // A SKILL.md that is a symbolic link: the file it points at is read, once, and never outside the repository.
      ctx.realRepo ??= realpathSync(repoDir);
      const real = realpathSync(join(repoDir, path));
      const rel = relative(ctx.realRepo, real).split(sep).join("/");
      if (rel.startsWith("../") || isAbsolute(rel)) {
        // The agent would be handed a file the repository does not hold (#27): never read, never installed.
        problem("error", "skill/link-outside", "SKILL.md links outside the repository: not read");
        return undefined;
      }
      if (rel !== path && ctx.candidates.has(rel)) {
        // The same skill again (a per-agent folder linking to the real one): reported once, at its real path.
        problem("notice", "skill/linked", `a link to ${rel}: the same skill, reported once at its real path`);
        return undefined;
      }
      bytes = readRegularFile(real);
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ELOOP")
      problem("error", "skill/link-loop", "SKILL.md is a loop of symbolic links: not read");
    else if (code === "ENOENT")
      problem("error", "skill/link-dangling", "SKILL.md is a symbolic link to nothing: not read");
    else problem("error", "skill/unreadable", `cannot read SKILL.md: ${(e as Error).message}`);
    return undefined;
  }
  if (!bytes) return undefined;
  const raw = bytes.toString("utf8");
  const { layout, namespace, pluginDir, alsoIn } = skillLayout(dir, ctx.plugins);
  let expected: ExpectedName | null;
  if (layout === "root") {
    const repo = ctx.repoName();
    expected = repo
      ? { name: repo, what: "the repository's name", why: "a root skill's folder is the repository" }
      : null;
  } else expected = { name: posix.basename(dir), what: "its folder name" };
  const parsed = parseSkillFileOnce(path, raw, ctx.profile, expected);
  const fm = parsed.frontmatter;
  if (layout === "grouped" && Object.keys(fm).length > 0 && !("name" in fm) && !("description" in fm)) {
    // Frontmatter of something else (a generated page, a doc) outside any skills folder: no agent loads it.
    problem(
      "notice",
      "skill/not-a-skill",
      `not a skill: its frontmatter has neither \`name\` nor \`description\`, and no agent looks for skills in ${dir}/`,
    );
    return undefined;
  }
  appendAll(diagnostics, parsed.diagnostics);
  if (parsed.notASkill) return undefined;
  if (alsoIn)
    problem(
      "notice",
      "skill/in-several-plugins",
      `plugins ${alsoIn.join(", ")} load this skill too (each loads its skills/ folder): gated once, as a skill of plugin ${namespace}`,
    );
  const validName =
    parsed.name &&
    [...parsed.name].length <= NAME_MAX &&
    (ASCII_NAME.test(parsed.name) || UNICODE_NAME_PATTERN.test(parsed.name))
      ? parsed.name
      : undefined;
  const local =
    validName ?? (layout === "root" ? (ctx.repoName() ?? posix.basename(repoDir)) : posix.basename(dir));
  return {
    name: qualifiedName(local, namespace),
    ...(namespace ? { namespace, pluginDir } : {}),
    layout,
    dir,
    path,
    description: parsed.description ?? "",
    version: parsed.version,
    frontmatter: parsed.frontmatter,
    body: parsed.body,
    raw,
    folder: new SkillFolder(repoDir, dir, ctx.dirs, { [posix.basename(path)]: bytes }),
    ...(parsed.diagnostics.some((d) => d.code === "skill/frontmatter-yaml" && d.severity === "warning")
      ? { quotedYaml: true as const }
      : {}),
    loc: parsed.loc,
  };
}
