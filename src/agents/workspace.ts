/**
 * One fresh temporary directory per trial: the case's files, the skills the mode asks for (never their `evals/`),
 * and a temporary HOME beside it. After the run, `collectWrittenFiles` reads back what the agent wrote.
 * The file operations are synchronous on purpose: they are a handful of small files per trial, and the promise
 * versions cost about four times the CPU (measured: ~1.7 ms vs ~8.5 ms per trial on the busy 2-core machine),
 * which is the runner's whole orchestration budget.
 */

import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  type Dirent,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, isAbsolute, join, normalize, relative, sep } from "node:path";
import type { TrialRequest, Workspace } from "../model/index.js";

/** Caps on what is read back from a workspace: enough for source files, bounded for runaway agents. */
export const MAX_WRITTEN_FILE_BYTES = 256 * 1024;
export const MAX_WRITTEN_TOTAL_BYTES = 4 * 1024 * 1024;
export const MAX_WRITTEN_FILES = 500;
/** Folders never read back: dependencies and VCS data are not what the agent wrote. */
const SKIPPED_DIRS = new Set(["node_modules", ".git"]);

export interface PreparedWorkspace extends Workspace {
  /** The temporary root holding `work/` (the workspace) and `home/`. */
  root: string;
  /** Content hash of every file placed before the run, workspace-relative → sha256. */
  initial: Map<string, string>;
  skillsDir: string;
}

export class WorkspaceError extends Error {}

function insideRelative(to: string): string {
  const rel = normalize(to).split(sep).join("/");
  if (isAbsolute(to) || rel === ".." || rel.startsWith("../") || rel === "." || rel === "") {
    throw new WorkspaceError(`case file target "${to}" is outside the workspace`);
  }
  return rel;
}

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

function place(from: string, dir: string, rel: string, initial: Map<string, string>): void {
  const target = join(dir, rel);
  const content = readFileSync(from);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, content);
  initial.set(rel, sha256(content));
}

/** Depth-first removal; `rmSync` only as the fallback for odd trees (it costs ~1.5× more). */
function removeTree(path: string): void {
  for (const e of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, e.name);
    if (e.isDirectory()) removeTree(full);
    else unlinkSync(full);
  }
  rmdirSync(path);
}

/** Creates the workspace of one trial. `parent` defaults to the OS temp folder, which is never inside the repo. */
export async function prepareWorkspace(
  request: TrialRequest,
  skillsDir: string,
  parent: string = tmpdir(),
): Promise<PreparedWorkspace> {
  const root = mkdtempSync(join(parent, "skillgate-trial-"));
  const dir = join(root, "work");
  const home = join(root, "home");
  mkdirSync(dir);
  mkdirSync(home);
  const initial = new Map<string, string>();
  try {
    for (const f of request.files) place(f.from, dir, insideRelative(f.to), initial);
    const skillPaths: Record<string, string> = {};
    for (const skill of request.install) {
      const skillRel = insideRelative(join(skillsDir, skill.name));
      for (const file of skill.files) {
        const rel = insideRelative(file);
        // The agent must never see the answers, whatever the planner passed.
        if (rel === "evals" || rel.startsWith("evals/")) continue;
        place(join(skill.sourceDir, rel), dir, `${skillRel}/${rel}`, initial);
      }
      skillPaths[skill.name] = join(dir, skillRel);
    }
    return { root, dir, home, skillPaths, initial, skillsDir };
  } catch (e) {
    rmSync(root, { recursive: true, force: true });
    throw e;
  }
}

export async function removeWorkspace(ws: PreparedWorkspace): Promise<void> {
  try {
    removeTree(ws.root);
  } catch {
    rmSync(ws.root, { recursive: true, force: true, maxRetries: 2 });
  }
}

/** Workspaces removed together by one `rm -rf`: deleting on a filesystem mounted with `discard` blocks ~40 ms per
 * folder, which must not stall the runner's event loop. */
export const WORKSPACE_REMOVAL_BATCH = 32;

/**
 * Removes used workspaces off the critical path: each is renamed (one cheap syscall) into a batch folder, and
 * full batches are deleted by a background `rm -rf`. `drain()` deletes the rest and waits for every batch.
 */
export class WorkspaceJanitor {
  private batchDir: string | undefined;
  private inBatch = 0;
  private pending: Promise<void>[] = [];

  constructor(private readonly parent: string = tmpdir()) {}

  dispose(ws: PreparedWorkspace): void {
    try {
      this.batchDir ??= mkdtempSync(join(this.parent, "skillgate-trash-"));
      renameSync(ws.root, join(this.batchDir, basename(ws.root)));
    } catch {
      rmSync(ws.root, { recursive: true, force: true, maxRetries: 2 });
      return;
    }
    if (++this.inBatch >= WORKSPACE_REMOVAL_BATCH) this.flush();
  }

  private flush(): void {
    const dir = this.batchDir;
    this.batchDir = undefined;
    this.inBatch = 0;
    if (!dir) return;
    this.pending.push(
      new Promise<void>((resolve) => {
        const child = spawn("rm", ["-rf", dir], { stdio: "ignore" });
        child.on("error", () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.on("close", () => resolve());
      }),
    );
  }

  async drain(): Promise<void> {
    this.flush();
    const all = this.pending;
    this.pending = [];
    await Promise.all(all);
  }
}

function looksBinary(b: Buffer): boolean {
  return b.subarray(0, 8192).includes(0);
}

/** Text files created or changed by the agent, workspace-relative → content, with notes about what was capped. */
export async function collectWrittenFiles(
  ws: PreparedWorkspace,
): Promise<{ files: Record<string, string>; notes: string[] }> {
  const files: Record<string, string> = {};
  const notes: string[] = [];
  let total = 0;
  let count = 0;
  const walk = (abs: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const full = join(abs, e.name);
      const rel = relative(ws.dir, full).split(sep).join("/");
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name)) walk(full);
        continue;
      }
      if (!e.isFile()) continue;
      const size = statSync(full).size;
      if (size > MAX_WRITTEN_FILE_BYTES) {
        notes.push(`file ${rel} not read back: ${size} bytes > ${MAX_WRITTEN_FILE_BYTES}`);
        continue;
      }
      const content = readFileSync(full);
      if (ws.initial.get(rel) === sha256(content)) continue;
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
  walk(ws.dir);
  return { files, notes };
}
