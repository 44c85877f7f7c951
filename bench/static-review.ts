import { type Dirent, lstatSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { reviewSkillFolder } from "../src/review/folder.js";
import type { StaticFinding } from "../src/review/static-review.js";
import type { BenchContext } from "./types.js";

/**
 * `staticReview.ms`: the static review (src/review/) of 10,000 generated skill folders treated as new in a pull
 * request (every byte of every file read and reviewed), goal ≤ 60 s. With `--corpus DIR[,DIR…]`, also every skill
 * folder (a folder holding a SKILL.md) under those folders: `staticReview.corpus` counts the folders the review
 * would block, and each one is printed with its reasons (docs/security.md lists them).
 */
const FOLDERS = 10_000;

function write(root: string, rel: string, content: string | Buffer): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
}

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(2048, 7),
]);

function generate(root: string): string[] {
  const dirs: string[] = [];
  const code = Array.from(
    { length: 60 },
    (_, k) => `def step_${k}(x):\n    return x * ${k}  # 手順 ${k}\n`,
  ).join("");
  const prose = Array.from(
    { length: 80 },
    (_, k) => `- Point ${k}: see https://docs.python.org/3/ and keep it tidy.`,
  ).join("\n");
  for (let i = 0; i < FOLDERS; i++) {
    const rel = `skills/skill-${i}`;
    write(
      root,
      `${rel}/SKILL.md`,
      `---\nname: skill-${i}\ndescription: Does task ${i}.\n---\n# Task ${i}\n\n\`\`\`bash\npython3 scripts/run.py --n ${i}\n\`\`\`\n\n${prose}\n`,
    );
    write(root, `${rel}/scripts/run.py`, code);
    write(root, `${rel}/reference.md`, `${prose}\n${prose}\n`);
    if (i % 50 === 0) write(root, `${rel}/assets/logo.png`, PNG);
    dirs.push(join(root, rel));
  }
  return dirs;
}

/** Files of a skill folder, relative to it: not `evals/`, never a link. */
function filesOf(dir: string): string[] {
  const out: string[] = [];
  const walk = (abs: string) => {
    for (const e of readdirSync(abs, { withFileTypes: true })) {
      const p = join(abs, e.name);
      if (e.isDirectory()) {
        if (!(abs === dir && e.name === "evals") && e.name !== ".git") walk(p);
      } else if (e.isFile()) out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out;
}

/** Folders holding a SKILL.md under `root`. */
function skillFolders(root: string): string[] {
  const out: string[] = [];
  const walk = (abs: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    if (entries.some((e) => e.isFile() && e.name === "SKILL.md")) out.push(abs);
    for (const e of entries)
      if (e.isDirectory() && e.name !== ".git" && e.name !== "node_modules") walk(join(abs, e.name));
  };
  if (lstatSync(root).isDirectory()) walk(root);
  return out;
}

function review(dirs: string[]): { ms: number; blocked: Map<string, StaticFinding[]>; reported: number } {
  const blocked = new Map<string, StaticFinding[]>();
  let reported = 0;
  const started = performance.now();
  for (const dir of dirs) {
    const findings = reviewSkillFolder({ dir, files: filesOf(dir) }, undefined);
    const blocking = findings.filter((f) => f.blocking);
    reported += findings.length - blocking.length;
    if (blocking.length) blocked.set(dir, blocking);
  }
  return { ms: performance.now() - started, blocked, reported };
}

export async function bench(ctx: BenchContext): Promise<Record<string, unknown>> {
  const root = join(ctx.tmp, "static-review");
  const generated = review(generate(root));
  ctx.log(
    `static review of ${FOLDERS} new skill folders: ${(generated.ms / 1000).toFixed(1)} s (goal ≤ 60 s)`,
  );
  const out: Record<string, unknown> = {
    "staticReview.ms": Math.round(generated.ms),
    "staticReview.folders": FOLDERS,
    "staticReview.generatedBlocked": generated.blocked.size,
  };
  if (typeof ctx.flags.corpus === "string") {
    const dirs = ctx.flags.corpus.split(",").flatMap(skillFolders);
    const r = review(dirs);
    const rate = dirs.length ? r.blocked.size / dirs.length : 0;
    ctx.log(
      `static review of ${dirs.length} real skill folders: ${(r.ms / 1000).toFixed(1)} s, ${r.blocked.size} blocked (${(rate * 100).toFixed(2)} %), ${r.reported} reported`,
    );
    for (const [dir, fs] of r.blocked)
      ctx.log(
        `  ${dir}: ${fs
          .map((f) => `${f.class} ${f.message}`)
          .join("; ")
          .slice(0, 400)}`,
      );
    out["staticReview.corpus"] = {
      folders: dirs.length,
      blocked: r.blocked.size,
      rate,
      ms: Math.round(r.ms),
      reported: r.reported,
    };
  }
  return out;
}
