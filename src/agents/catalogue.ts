/**
 * A trigger trial installs the whole catalogue (issue #42: 10,000 skills are ~20,000 files). It is written once
 * per run, into a folder of the run's own (never the checkout: skillgate reads the checkout as truth, so nothing an
 * agent does may reach it), its files read-only, and each trial is given that one folder:
 * - `mount`: agents confined by bubblewrap (confine.ts) get it bound read-only at their workspace's skills folder.
 *   The trial's workspace holds an empty folder there; the agent sees a normal project whose skills folder it
 *   cannot change (EROFS), so no trial can alter what a later one sees. Per trial: one folder and one bind.
 * - `symlinks`: agents that run unconfined (isolation `none`, where nothing is protected from them anyway) and
 *   in-process adapters get a real skills folder holding one symbolic link per skill to the shared copy (Claude
 *   Code lists linked skill folders as skills). Per trial: one link per skill, no file; the shared files are
 *   read-only, so an honest write fails instead of changing what the next trial sees.
 * Hard links to the checkout are never made: a write through one would change a file skillgate later hashes,
 * compares and grades from. A run's second catalogue (a PR's base) hard-links the files it shares with the first to
 * that first read-only copy: both are the run's own, so nothing outside the run is reachable through them.
 */
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, linkSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import type { InstalledSkill } from "../model/index.js";

/** How a trial gets a shared catalogue (`copy`: each trial its own copy, as for a trial's one skill). */
export type CatalogueSharing = "mount" | "symlinks" | "copy";

/** One installed skill's files: absolute source, and the path under the skills folder (`<name>/<file>`). */
export interface SkillFiles {
  name: string;
  files: { from: string; rel: string }[];
}

/** Where a shared catalogue is: its folder, holding `<name>/<files>` per skill, and what it holds. */
export interface SharedCatalogue {
  dir: string;
  /** The skills' folder names under `dir`, in install order. */
  skills: string[];
  /** The installed skills' names (a folder each under `dir`), with their place in install order: every trial's
   * `skillsRoot` (model/agent.ts). */
  names: ReadonlyMap<string, number>;
}

/** Every catalogue a run installs, made once each (by content), removed with the run's workspaces. */
export class SharedCatalogues {
  private root: string | undefined;
  private readonly byKey = new Map<string, SharedCatalogue>();
  private readonly keys = new WeakMap<readonly InstalledSkill[], string>();
  /**
   * Each source file's read-only copy in an earlier catalogue of this run: a PR's base catalogue differs from its
   * head's in the skills the PR touched, so the rest are hard links between two of the run's own read-only copies
   * (never to the checkout).
   */
  private readonly copies = new Map<string, string>();

  /** `parent`: where the run's workspaces go (the same filesystem, so `links` can link). */
  constructor(
    private readonly parent: () => string,
    private readonly prefix: string,
  ) {}

  /** The shared folder of `install`, written on first use; `layout` says which files each skill installs. */
  folder(install: readonly InstalledSkill[], layout: (s: InstalledSkill) => SkillFiles): SharedCatalogue {
    const key = this.keyOf(install);
    const known = this.byKey.get(key);
    if (known) return known;
    this.root ??= mkdtempSync(join(this.parent(), this.prefix));
    const dir = join(this.root, String(this.byKey.size));
    const ensure = (rel: string, seen: Set<string>): void => {
      if (seen.has(rel)) return;
      const slash = rel.lastIndexOf("/");
      if (slash > 0) ensure(rel.slice(0, slash), seen);
      mkdirSync(join(dir, rel));
      seen.add(rel);
    };
    mkdirSync(dir);
    const skills: string[] = [];
    const seen = new Set<string>();
    for (const skill of install) {
      const { name, files } = layout(skill);
      ensure(name, seen);
      skills.push(name);
      for (const f of files) {
        ensure(f.rel.slice(0, f.rel.lastIndexOf("/")), seen);
        const to = join(dir, f.rel);
        const earlier = this.copies.get(f.from);
        if (earlier) linkSync(earlier, to);
        else {
          copyFileSync(f.from, to);
          // Read-only for everyone: an honest write fails rather than reaching the next trial's catalogue.
          chmodSync(to, 0o444);
          this.copies.set(f.from, to);
        }
      }
    }
    const names = new Map<string, number>();
    for (const s of install) if (!names.has(s.name)) names.set(s.name, names.size);
    const shared = { dir, skills, names };
    this.byKey.set(key, shared);
    return shared;
  }

  /** One symbolic link per skill in a trial's skills folder `into`, to the shared copy (`symlinks`). */
  static link(shared: SharedCatalogue, into: string): void {
    for (const name of shared.skills) symlinkSync(join(shared.dir, name), join(into, name));
  }

  /** Forgets every shared catalogue and returns the folder to remove (once no trial runs any more). */
  release(): string | undefined {
    const root = this.root;
    this.root = undefined;
    this.byKey.clear();
    this.copies.clear();
    return root;
  }

  /**
   * A catalogue is its skills' names and sources (within a run a source folder holds one content: head's, or the
   * base's for what the PR touched); a request list shares one array, keyed once.
   */
  private keyOf(install: readonly InstalledSkill[]): string {
    let key = this.keys.get(install);
    if (!key) {
      const h = createHash("sha256");
      for (const s of install) h.update(`${s.name}\0${s.sourceDir}\n`);
      key = h.digest("hex");
      this.keys.set(install, key);
    }
    return key;
  }
}
