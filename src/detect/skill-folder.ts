/**
 * What an agent sees of a skill folder: its files (listed on first use) and their content hash (computed on first
 * use, a second step: a run that only installs or forecasts a catalogue lists 10,000 folders, and hashes none).
 */
import { hash } from "node:crypto";
import { realpathSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import type { SkillFolderContent } from "../model/index.js";
import { sha256OfFile } from "../util/read-file.js";
import { DirIndex } from "./dir-index.js";
import { SKIPPED_DIRS } from "./repo-files.js";

/** A skill folder's files and content hash, each read on first use (see `Skill.folder`). */
export class SkillFolder implements SkillFolderContent {
  private listed?: string[];
  private hashed?: string;
  /** The suite files in the folder (relative to it): never installed, hashed with the suite (`withheld.ts`). */
  private withheld: ReadonlySet<string> = new Set();

  constructor(
    private readonly repoDir: string,
    private readonly dir: string,
    private readonly dirs: DirIndex,
    /** Contents already read (SKILL.md), dropped once hashed. */
    private known?: Record<string, Buffer>,
  ) {}

  /** Set once the suites are loaded, before the folder is first read. */
  withhold(files: ReadonlySet<string>): void {
    if (this.listed) throw new Error(`skill folder ${this.dir} was read before its suite files were known`);
    this.withheld = files;
  }

  get files(): string[] {
    this.listed ??= listSkillFolder(this.repoDir, this.dir, this.dirs, this.withheld);
    return this.listed;
  }

  get contentHash(): string {
    if (this.hashed === undefined) {
      this.hashed = hashFiles(this.repoDir, this.dir, this.files, this.known);
      this.known = undefined;
    }
    return this.hashed;
  }

  get root(): string {
    return this.repoDir;
  }

  toJSON(): SkillFolderContent {
    return { files: this.files, contentHash: this.contentHash };
  }
}

/**
 * What the agent sees of a skill: every file of its folder, as a harness loads it, but the suite files read from it
 * (`withheld`, relative to the folder: the answers), hashed by path and content. A symbolic
 * link that stays inside the repository is what it points at (a linked SKILL.md, a shared `references/` folder):
 * the agent is given the same content the router reads (#27); one that leaves it, loops or leads nowhere is
 * never followed (discovery reports it). `known` holds contents already read (SKILL.md), by relative path.
 */
export function hashSkillFolder(
  repoDir: string,
  dir: string,
  dirs: DirIndex = new DirIndex(repoDir),
  known: Record<string, Buffer> = {},
  withheld: ReadonlySet<string> = new Set(),
): { files: string[]; contentHash: string } {
  const files = listSkillFolder(repoDir, dir, dirs, withheld);
  return { files, contentHash: hashFiles(repoDir, dir, files, known) };
}

/** The files of a skill folder an agent is given (see `hashSkillFolder`), sorted. */
function listSkillFolder(
  repoDir: string,
  dir: string,
  dirs: DirIndex,
  withheld: ReadonlySet<string>,
): string[] {
  const files: string[] = [];
  const at = (rel: string) => (dir === "." ? rel : rel ? `${dir}/${rel}` : dir);
  let realRepo: string | undefined;
  /** The real path of a link inside the repository, else undefined. */
  const inside = (rel: string): string | undefined => {
    try {
      realRepo ??= realpathSync(repoDir);
      const real = realpathSync.native(join(repoDir, at(rel)));
      const r = relative(realRepo, real);
      return r !== "" && !r.startsWith(`..${sep}`) && r !== ".." && !isAbsolute(r) ? real : undefined;
    } catch {
      return undefined;
    }
  };
  // The real path of every folder entered on the way down: a link to one of them (or above) is a loop.
  const walk = (rel: string, entered: readonly string[]) => {
    const here = entered[entered.length - 1]!;
    for (const [name, e] of dirs.list(at(rel)) ?? []) {
      const p = rel ? `${rel}/${name}` : name;
      const real = e.link ? inside(p) : join(here, name);
      if (!real) continue;
      // A root skill's folder is the repository: its history and installed packages are not the skill.
      if (e.kind === "dir" && !SKIPPED_DIRS.has(name)) {
        if (!entered.some((x) => x === real || x.startsWith(`${real}${sep}`))) walk(p, [...entered, real]);
      } else if (e.kind === "file" && !withheld.has(p)) files.push(p);
    }
  };
  let top: string | undefined;
  try {
    top = realpathSync.native(join(repoDir, dir));
  } catch {}
  if (top) walk("", [top]);
  return files.sort();
}

/** sha256 over `path \0 sha256(content) \n` per file, as one string (the same bytes as updating per piece). */
function hashFiles(
  repoDir: string,
  dir: string,
  files: readonly string[],
  known: Record<string, Buffer> = {},
): string {
  let listing = "";
  for (const f of files) {
    const bytes = known[f];
    listing += `${f}\0${bytes ? hash("sha256", bytes, "hex") : sha256OfFile(join(repoDir, dir, f))}\n`;
  }
  return hash("sha256", listing, "hex");
}
