/**
 * Which installed skill a path a trial's process opened or ran lies in: a trial installs thousands of skills and
 * its agent opens thousands of files, so a path looks its `/`-cut prefixes up instead of testing every skill.
 */
import type { SkillsRoot } from "../model/index.js";
import { inside } from "./paths.js";

export class SkillFolders {
  /**
   * The installed skills by folder (trailing `/` dropped), in `skills`' order. Built on the first path that could
   * be in one (most traces open none of them).
   */
  private byFolder: Map<string, [number, string, string][]> | undefined;
  private someOutside: boolean | undefined;
  private recordSkills = 0;

  constructor(
    private readonly skills: Readonly<Record<string, string>>,
    private readonly root: SkillsRoot | undefined,
    private readonly workspace: string,
  ) {}

  /** The installed skills whose folder may hold `path` (those at one of its prefixes), in install order. */
  above(path: string): [string, string][] {
    const root = this.root;
    if (!this.byFolder) {
      this.someOutside ??=
        Object.values(this.skills).some((d) => !inside(d, this.workspace)) ||
        (root !== undefined && !inside(root.dir, this.workspace));
      if (!this.someOutside && !inside(path, this.workspace)) return [];
      this.byFolder = this.index();
    }
    // A shared catalogue's skills are looked up by name under its folder: never listed per trial.
    const rootDir = root?.dir.replace(/\/+$/, "");
    const found: [number, string, string][] = [];
    for (let cut = path.lastIndexOf("/"); cut >= 0; cut = path.lastIndexOf("/", cut - 1)) {
      const folder = path.slice(0, cut);
      found.push(...(this.byFolder.get(folder) ?? []));
      if (
        root &&
        rootDir !== undefined &&
        folder.length > rootDir.length + 1 &&
        folder.startsWith(`${rootDir}/`)
      ) {
        const name = folder.slice(rootDir.length + 1);
        const order = root.names.get(name);
        if (order !== undefined) found.push([this.recordSkills + order, name, `${root.dir}/${name}`]);
      }
      if (cut === 0) break;
    }
    return found.sort((a, b) => a[0] - b[0]).map(([, skill, dir]) => [skill, dir]);
  }

  private index(): Map<string, [number, string, string][]> {
    const byFolder = new Map<string, [number, string, string][]>();
    this.recordSkills = Object.keys(this.skills).length;
    Object.entries(this.skills).forEach(([skill, dir], order) => {
      const key = dir.endsWith("/") ? dir.replace(/\/+$/, "") : dir;
      const list = byFolder.get(key);
      if (list) list.push([order, skill, dir]);
      else byFolder.set(key, [[order, skill, dir]]);
    });
    return byFolder;
  }
}
