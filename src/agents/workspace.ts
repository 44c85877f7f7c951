/**
 * One fresh temporary directory per trial: the case's files, the skills the mode asks for (as a harness loads
 * them, without the files their suites are read from: `src/detect/withheld.ts`),
 * inside a temporary HOME of its own (`<batch>/<n>/project`, HOME `<batch>/<n>`: an ordinary project in an
 * ordinary home, nothing in a path saying skillgate, evaluation or trial, which a skill could test for). After the run, `collectWrittenFiles` reads back what the agent wrote.
 * The file operations are synchronous on purpose: they are a handful of small files per trial, and the promise
 * versions cost about four times the CPU (measured: ~1.7 ms vs ~8.5 ms per trial on the busy 2-core machine).
 * While agent processes start beside it, every directory made costs the orchestrator 0.2–0.5 ms of (mostly
 * kernel) CPU: a trial's workspace has only the folders it needs, and each is made once, without probing.
 */

import { spawn } from "node:child_process";
import {
  closeSync,
  constants,
  type Dirent,
  fstatSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, normalize, sep } from "node:path";
import type { InstalledSkill, TrialRequest, Workspace } from "../model/index.js";
import { plantDecoys } from "../observe/decoys.js";
import { forgetRunFolder, registerRunFolder } from "../sandbox/isolation/run-folder.js";
import { type CatalogueSharing, SharedCatalogues } from "./catalogue.js";
import { BATCH_PREFIX } from "./workspace-parent.js";

/** Caps on what is read back from a workspace: enough for source files, bounded for runaway agents. */
const MAX_WRITTEN_FILE_BYTES = 256 * 1024;
const MAX_WRITTEN_TOTAL_BYTES = 4 * 1024 * 1024;
const MAX_WRITTEN_FILES = 500;
/** Folders never read back: dependencies and VCS data are not what the agent wrote. */
const SKIPPED_DIRS = new Set(["node_modules", ".git"]);

export interface PreparedWorkspace extends Workspace {
  /** Every case file placed before the run, workspace-relative → its content. */
  initial: Map<string, Buffer>;
  skillsDir: string;
  /** Workspace-relative folders of the installed skills: the harness's, never read back as the agent's work. */
  installed: ReadonlySet<string>;
}

export class WorkspaceError extends Error {}

function insideRelative(to: string): string {
  const rel = normalize(to).split(sep).join("/");
  if (isAbsolute(to) || rel === ".." || rel.startsWith("../") || rel === "." || rel === "") {
    throw new WorkspaceError(`case file target "${to}" is outside the workspace`);
  }
  return rel;
}

/**
 * A batch folder takes new workspaces until it holds this many or is this old; one background `rm -rf` removes it
 * once all its trials are done. Fast agents (small workspaces) share one `rm` among many trials (each spawn costs
 * the orchestrator a fork); slow ones never keep more than a few seconds' worth of finished workspaces waiting.
 */
export const WORKSPACE_BATCH = 128;
export const WORKSPACE_BATCH_MS = 5_000;

interface Batch {
  dir: string;
  opened: number;
  created: number;
  disposed: number;
  /** No further workspace goes into it. */
  closed: boolean;
  removed: boolean;
}

interface BatchedWorkspace extends PreparedWorkspace {
  batch: Batch;
}

/** Where one skill goes in every workspace, worked out once per run: its folder and the files to copy. */
interface SkillLayout {
  /** Workspace-relative folder, e.g. `.agents/skills/split-cents`. */
  rel: string;
  files: { from: string; rel: string }[];
}

/** The folder of a trial's workspace in its HOME: named as a project is. */
export const PROJECT_FOLDER = "project";

/**
 * The workspaces of one run. Each trial gets two fresh folders, `<batch>/<n>` (its HOME) and in it `project` (its cwd),
 * inside a batch folder made by `mkdtemp` (mode 0700, so the numbered names cannot be raced). Source files are
 * read once per run and written into every workspace as a new file of its own (never a hard link: an agent's
 * edit must not reach the source or another trial). Used workspaces stay in place until their whole batch is
 * done, then one background `rm -rf` deletes the batch: deleting on a filesystem mounted with `discard` blocks
 * ~40 ms per folder, which must not stall the runner's event loop, and every directory created or removed here
 * costs the orchestrator CPU, so a workspace has only the folders it needs.
 */
export class TrialWorkspaces {
  private readonly sources = new Map<string, Buffer>();
  private readonly layouts = new WeakMap<InstalledSkill, SkillLayout>();
  private batch: Batch | undefined;
  private pending: Promise<void>[] = [];

  private readonly parent: () => string;
  private readonly catalogues: SharedCatalogues;

  /**
   * `parent` is a folder, or a function asked for the folder of each new batch (see workspace-parent.ts);
   * `sharing`: how a trigger trial gets its catalogue (catalogue.ts; `copy`: a copy per trial).
   */
  constructor(
    private readonly skillsDir: string,
    parent: string | (() => string) = tmpdir(),
    private readonly now: () => number = Date.now,
    private readonly sharing: CatalogueSharing = "copy",
  ) {
    this.parent = typeof parent === "string" ? () => parent : parent;
    this.catalogues = new SharedCatalogues(this.parent, BATCH_PREFIX);
  }

  private source(path: string): Buffer {
    let content = this.sources.get(path);
    if (!content) {
      content = readFileSync(path);
      this.sources.set(path, content);
    }
    return content;
  }

  private layout(skill: InstalledSkill): SkillLayout {
    let layout = this.layouts.get(skill);
    if (!layout) {
      const rel = insideRelative(join(this.skillsDir, skill.name));
      const files: SkillLayout["files"] = [];
      for (const file of skill.files) {
        const fileRel = insideRelative(file);
        files.push({ from: join(skill.sourceDir, fileRel), rel: `${rel}/${fileRel}` });
      }
      layout = { rel, files };
      this.layouts.set(skill, layout);
    }
    return layout;
  }

  /** Creates the workspace of one trial, in the current batch (a new one when it is full or old). */
  prepare(request: TrialRequest): PreparedWorkspace {
    if (this.batch && !this.batch.closed && this.now() - this.batch.opened > WORKSPACE_BATCH_MS) {
      this.close(this.batch);
    }
    if (!this.batch || this.batch.closed) {
      const dir = mkdtempSync(join(this.parent(), BATCH_PREFIX));
      this.batch = { dir, opened: this.now(), created: 0, disposed: 0, closed: false, removed: false };
    }
    const batch = this.batch;
    const n = batch.created++;
    if (batch.created >= WORKSPACE_BATCH) batch.closed = true;
    const home = join(batch.dir, String(n));
    const dir = `${home}/${PROJECT_FOLDER}`;
    const initial = new Map<string, Buffer>();
    const installed = new Set<string>();
    const ws: BatchedWorkspace = {
      dir,
      home,
      skillPaths: {},
      initial,
      installed,
      skillsDir: this.skillsDir,
      batch,
    };
    try {
      mkdirSync(home);
      mkdirSync(dir);
      // Made here for this trial: the only folders a confined agent's uid may be given (run-folder.ts).
      registerRunFolder(dir);
      registerRunFolder(home);
      // The agent's own temp folder (TMPDIR): a shared /tmp may hold folders another user made (Claude Code
      // refuses /tmp/claude-<uid> owned by anyone else), and nothing a trial leaves there outlives its workspace.
      mkdirSync(`${home}/tmp`, { mode: 0o700 });
      // Folders made so far, workspace-relative: each is one mkdir, with no probing of what already exists.
      const made = new Set<string>([""]);
      const ensureDir = (rel: string): void => {
        if (made.has(rel)) return;
        const slash = rel.lastIndexOf("/");
        ensureDir(slash < 0 ? "" : rel.slice(0, slash));
        mkdirSync(`${dir}/${rel}`);
        made.add(rel);
      };
      const place = (from: string, rel: string): Buffer => {
        const content = this.source(from);
        const slash = rel.lastIndexOf("/");
        if (slash > 0) ensureDir(rel.slice(0, slash));
        writeFileSync(`${dir}/${rel}`, content);
        return content;
      };
      for (const f of request.files) {
        const rel = insideRelative(f.to);
        initial.set(rel, place(f.from, rel));
      }
      if (request.mode === "trigger" && this.sharing !== "copy") {
        this.installShared(request, ws, ensureDir, installed);
        return ws;
      }
      for (const skill of request.install) {
        const layout = this.layout(skill);
        ensureDir(layout.rel);
        for (const f of layout.files) place(f.from, f.rel);
        installed.add(layout.rel);
        ws.skillPaths[skill.name] = `${dir}/${layout.rel}`;
      }
      const decoys = plantDecoys(dir, home, initial);
      if (decoys) ws.decoys = decoys;
      return ws;
    } catch (e) {
      this.dispose(ws);
      throw e;
    }
  }

  /**
   * A trigger trial's catalogue, written once per run (catalogue.ts): bound read-only at the skills folder
   * (`mount`: an empty folder here, the bind in `ws.mounts`), or one link per skill to it (`symlinks`).
   */
  private installShared(
    request: TrialRequest,
    ws: PreparedWorkspace,
    ensureDir: (rel: string) => void,
    installed: Set<string>,
  ): void {
    const rel = insideRelative(this.skillsDir);
    const shared = this.catalogues.folder(request.install, (skill) => {
      const layout = this.layout(skill);
      const files = layout.files.map((f) => ({ from: f.from, rel: f.rel.slice(rel.length + 1) }));
      return { name: layout.rel.slice(rel.length + 1), files };
    });
    ensureDir(rel);
    if (this.sharing === "mount") ws.mounts = [{ from: shared.dir, to: `${ws.dir}/${rel}` }];
    else SharedCatalogues.link(shared, `${ws.dir}/${rel}`);
    // The harness's folder: never read back as the agent's work.
    installed.add(rel);
    // One index for every trial of this catalogue: no per-trial path per skill.
    ws.skillsRoot = { dir: `${ws.dir}/${rel}`, names: shared.names };
  }

  /** The trial is over: its workspace goes with its batch, once every workspace of the batch is done. */
  dispose(ws: PreparedWorkspace): void {
    forgetRunFolder(ws.dir);
    forgetRunFolder(ws.home);
    const batch = (ws as BatchedWorkspace).batch;
    batch.disposed++;
    if (batch.closed && batch.disposed >= batch.created) this.remove(batch);
  }

  private close(batch: Batch): void {
    batch.closed = true;
    if (batch.disposed >= batch.created) this.remove(batch);
  }

  private remove(batch: Batch): void {
    if (batch.removed) return;
    batch.removed = true;
    this.removeFolder(batch.dir);
  }

  private removeFolder(dir: string): void {
    this.pending.push(
      new Promise<void>((resolve) => {
        const child = spawn("rm", ["-rf", dir], { stdio: "ignore" });
        child.on("error", () => {
          rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
          resolve();
        });
        child.on("close", () => resolve());
      }),
    );
  }

  /** Removes what is left; call when no trial is running any more. */
  async drain(): Promise<void> {
    const batch = this.batch;
    this.batch = undefined;
    if (batch) {
      batch.closed = true;
      this.remove(batch);
    }
    const catalogues = this.catalogues.release();
    if (catalogues) this.removeFolder(catalogues);
    const all = this.pending;
    this.pending = [];
    await Promise.all(all);
  }
}

/** A regular file's bytes, its size when over the cap, or undefined when it is not (any more) a regular file. */
function readRegular(path: string): Buffer | number | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return undefined;
    if (st.size > MAX_WRITTEN_FILE_BYTES) return st.size;
    return readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function looksBinary(b: Buffer): boolean {
  return b.subarray(0, 8192).includes(0);
}

/**
 * Text files created or changed by the agent, workspace-relative → content, with notes about what was capped.
 * The installed skills' folders are skipped: they are the harness's copy of the skill, not the agent's work (and
 * not reading them saves every trial a walk of each skill's tree). Case files are compared with what was placed.
 */
export function collectWrittenFiles(ws: PreparedWorkspace): {
  files: Record<string, string>;
  notes: string[];
} {
  const files: Record<string, string> = {};
  const notes: string[] = [];
  let total = 0;
  let count = 0;
  // `prefix` is the workspace-relative folder with a trailing slash ("" at the top).
  const walk = (abs: string, prefix: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const full = `${abs}/${e.name}`;
      const rel = prefix + e.name;
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name) && !ws.installed.has(rel)) walk(full, `${rel}/`);
        continue;
      }
      if (!e.isFile()) continue;
      // The agent wrote this folder (another uid, perhaps still a dying process): never follow a link it put
      // here since it was listed, never block on a FIFO; read only what is still a regular file once opened.
      const content = readRegular(full);
      if (content === undefined) continue;
      if (typeof content === "number") {
        notes.push(`file ${rel} not read back: ${content} bytes > ${MAX_WRITTEN_FILE_BYTES}`);
        continue;
      }
      const placed = ws.initial.get(rel);
      if (placed?.equals(content)) continue;
      if (looksBinary(content)) continue;
      if (count >= MAX_WRITTEN_FILES || total + content.length > MAX_WRITTEN_TOTAL_BYTES) {
        notes.push(
          `file ${rel} not read back: written files capped at ${MAX_WRITTEN_FILES} / ${MAX_WRITTEN_TOTAL_BYTES} bytes`,
        );
        continue;
      }
      files[rel] = content.toString("utf8");
      total += content.length;
      count++;
    }
  };
  walk(ws.dir, "");
  return { files, notes };
}

/** Entries a workspace-usage walk visits at most: more counts as over the cap (millions of tiny files). */
export const WORKSPACE_MAX_ENTRIES = 200_000;

/**
 * Disk space the trial's folders take (allocated blocks, so a sparse file counts what it holds), walked without
 * following links; the walk stops as soon as `capBytes` or `WORKSPACE_MAX_ENTRIES` is passed (a hostile workspace
 * cannot make it long).
 */
export function workspaceUsage(
  dirs: readonly string[],
  capBytes: number,
): { bytes: number; entries: number; over: boolean } {
  let bytes = 0;
  let entries = 0;
  const over = () => bytes > capBytes || entries > WORKSPACE_MAX_ENTRIES;
  const walk = (dir: string): void => {
    let list: Dirent[];
    try {
      list = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of list) {
      if (over()) return;
      entries++;
      const full = `${dir}/${e.name}`;
      try {
        bytes += lstatSync(full).blocks * 512;
      } catch {
        continue; // gone meanwhile
      }
      if (e.isDirectory()) walk(full);
    }
  };
  // A folder inside another one listed (the workspace in its HOME) is counted with it, once.
  const roots = dirs.filter((d) => !dirs.some((o) => o !== d && d.startsWith(`${o}/`)));
  for (const d of roots) if (!over()) walk(d);
  return { bytes, entries, over: over() };
}
