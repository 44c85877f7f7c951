import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { assertionLookup } from "../src/detect/assertion-types.js";
import { classifyChanges } from "../src/detect/changes.js";
import { discoverRepository } from "../src/detect/discover.js";
import "../src/grade/assertions/index.js";
import { nearDuplicateWarnings } from "../src/detect/near-duplicates.js";
import * as registry from "../src/grade/assertions/registry.js";
import type { BenchContext } from "./types.js";

/**
 * `discovery.ms`: discovery + change detection as the pipeline does it on a pull request, on a generated
 * repository of 10,000 skills (every tenth with a seed-format suite) where the PR makes a few edits (a body, a
 * description, a suite, a new skill, a deletion): `discoverRepository` of head, of the base reusing head's
 * records of the skills the PR's changed files (as the PR API lists them) do not touch, and `classifyChanges`.
 * Head and base are git checkouts read as the Action reads them (`GITHUB_ACTIONS=true`: the tracked files, from
 * the index). Goal < 1 s. `discovery.fullCompareMs` is the same without a changed-file list (a local `--base-dir`
 * run): both sides read in full. `discovery.walkHeadMs` is head's discovery of the same files in a folder that
 * is no git checkout (one walk of every folder). Median of a few runs after one warm-up (file cache warm, as on
 * a runner that just checked the repository out).
 */
const SKILLS = 10_000;
const SUITE_EVERY = 10;
/** Timed runs of the guarded figure (median), and of the diagnostic ones (full compare, plain walk), after a warm-up. */
const RUNS = 3;
const DIAGNOSTIC_RUNS = 1;

const name = (i: number) => `skill-${String(i).padStart(5, "0")}`;

function write(root: string, rel: string, text: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

function skillText(
  i: number,
  description = `Handles task number ${i} for the team. Use when asked about topic ${i}.`,
) {
  return `---\nname: ${name(i)}\ndescription: ${description}\n---\n# ${name(i)}\n\nSteps for ${i}.\n`;
}

function generate(root: string): void {
  for (let i = 0; i < SKILLS; i++) {
    write(root, `skills/${name(i)}/SKILL.md`, skillText(i));
    write(root, `skills/${name(i)}/reference.md`, `Reference ${i}\n`);
    if (i % SUITE_EVERY === 0) {
      const suite = `.agent/evals/${name(i)}`;
      write(root, `${suite}/meta.json`, '{"trials": 3}\n');
      write(
        root,
        `${suite}/prompts/case-1.yaml`,
        `id: case-1\nprompt: Do task ${i}\nassertions:\n  - id: says\n    type: contains\n    value: "${i}"\n`,
      );
      write(
        root,
        `${suite}/trigger-eval.json`,
        JSON.stringify({ shouldFire: [`topic ${i}`], shouldNotFire: ["a poem"] }),
      );
    }
  }
}

/**
 * The repositories live in memory (/dev/shm) where there is one: discovery reads them from the page cache either
 * way, and writing 70,000 files to a disk that other jobs keep busy took 98 s (load average 11) of a section
 * allotted under a minute, plus the `sync` that keeps their write-back off discovery's clock.
 */
export async function bench(ctx: BenchContext): Promise<Record<string, unknown>> {
  const inMemory = statSync("/dev/shm", { throwIfNoEntry: false })?.isDirectory() === true;
  const scratch = inMemory ? mkdtempSync("/dev/shm/skillgate-bench-discovery-") : join(ctx.tmp, "discovery");
  try {
    return await measureIn(ctx, scratch, !inMemory);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function measureIn(
  ctx: BenchContext,
  scratch: string,
  onDisk: boolean,
): Promise<Record<string, unknown>> {
  const base = join(scratch, "base");
  const head = join(scratch, "head");
  const g0 = performance.now();
  // Both sides are commits checked out, as in the Action: base committed, head a clone with the PR committed. Git
  // writes the clone's 23,000 files and hashes only what the PR changed: the generation took 31 s by Node's writes
  // and two whole `git add`s.
  const git = (dir: string, ...args: string[]) =>
    execFileSync("git", ["-C", dir, "-c", "user.name=bench", "-c", "user.email=bench@localhost", ...args], {
      stdio: "ignore",
    });
  generate(base);
  git(base, "init", "-q");
  git(base, "add", "-A");
  git(base, "commit", "-q", "-m", "state");
  execFileSync("git", ["clone", "-q", base, head], { stdio: "ignore" });
  // The PR: a body edit, a description edit, a suite edit, a new skill, a deleted skill.
  write(head, `skills/${name(1)}/SKILL.md`, `${skillText(1)}Also check the edge cases.\n`);
  write(head, `skills/${name(2)}/SKILL.md`, skillText(2, "A new description for skill two."));
  write(
    head,
    `.agent/evals/${name(10)}/prompts/case-1.yaml`,
    'id: case-1\nprompt: Do task 10 again\nassertions:\n  - id: says\n    type: contains\n    value: "10"\n',
  );
  write(head, `skills/${name(SKILLS)}/SKILL.md`, skillText(SKILLS));
  rmSync(join(head, `skills/${name(3)}`), { recursive: true });
  git(head, "add", "-A");
  git(head, "commit", "-q", "-m", "the PR");
  // The same files outside any checkout, as hard links (nothing writes to head after this).
  const plain = join(scratch, "plain");
  execFileSync("cp", ["-al", head, plain]);
  rmSync(join(plain, ".git"), { recursive: true, force: true });
  const generateMs = performance.now() - g0;
  // Flush the generator's 70,000 new files first, so the kernel writing them back is not timed as discovery.
  if (onDisk) execFileSync("sync");
  // What `pulls.listFiles` returns for this PR.
  const changedFiles = [
    `skills/${name(1)}/SKILL.md`,
    `skills/${name(2)}/SKILL.md`,
    `.agent/evals/${name(10)}/prompts/case-1.yaml`,
    `skills/${name(SKILLS)}/SKILL.md`,
    `skills/${name(3)}/SKILL.md`,
    `skills/${name(3)}/reference.md`,
  ];

  const opts = {
    profile: "claude-code" as const,
    assertionTypes: assertionLookup(registry),
    env: { GITHUB_ACTIONS: "true" },
  };
  // Every timed run starts from a collected heap, as discovery does in the action (a fresh process): otherwise the
  // garbage of the run before (two discoveries of 10,000 skills) is collected on this run's clock.
  const gc = (globalThis as { gc?: () => void }).gc;
  const once = (withChangedFiles: boolean) => {
    gc?.();
    const t0 = performance.now();
    const h = discoverRepository(head, opts);
    const t1 = performance.now();
    const b = discoverRepository(
      base,
      withChangedFiles ? { ...opts, reuse: { from: h, changedFiles } } : opts,
    );
    const t2 = performance.now();
    const changes = classifyChanges(
      { dir: head, skills: h.skills },
      { dir: base, skills: b.skills },
      withChangedFiles ? changedFiles : undefined,
    );
    const t3 = performance.now();
    return { total: t3 - t0, head: t1 - t0, base: t2 - t1, classify: t3 - t2, h, changes };
  };
  // Only the timings of each run are kept (the records are the same every time): a run's records stay alive
  // until the next one starts, never longer.
  const median = (withChangedFiles: boolean, runs: number) => {
    let last: ReturnType<typeof once> | undefined = once(withChangedFiles);
    const times: { total: number; head: number; base: number; classify: number }[] = [];
    for (let i = 0; i < runs; i++) {
      last = undefined;
      last = once(withChangedFiles);
      const { total, head, base, classify } = last;
      times.push({ total, head, base, classify });
    }
    const mid = times.sort((a, b) => a.total - b.total)[runs >> 1]!;
    return { ...mid, h: last!.h, changes: last!.changes };
  };
  const m = median(true, RUNS);
  const full = median(false, DIAGNOSTIC_RUNS);
  const walkTimes: number[] = [];
  for (let i = 0; i <= DIAGNOSTIC_RUNS; i++) {
    gc?.();
    const t0 = performance.now();
    const w = discoverRepository(plain, opts);
    if (i > 0) walkTimes.push(performance.now() - t0);
    if (w.files.source !== "walk" || w.skills.length !== SKILLS)
      throw new Error(`plain folder misread: ${w.files.source}, ${w.skills.length} skills`);
  }
  const walkMs = walkTimes.sort((a, b) => a - b)[DIAGNOSTIC_RUNS >> 1]!;
  if (m.h.files.source !== "git") throw new Error(`head was not read as a git checkout: ${m.h.files.source}`);
  const changed = m.changes.filter((c) => c.change !== "unchanged").map((c) => `${c.name}:${c.change}`);
  const changedFull = full.changes
    .filter((c) => c.change !== "unchanged")
    .map((c) => `${c.name}:${c.change}`);
  if (changed.join() !== changedFull.join())
    throw new Error(`the changed-file list changed the classification: ${changed} vs ${changedFull}`);
  const errors = m.h.diagnostics.filter((d) => d.severity === "error").length;
  if (m.h.skills.length !== SKILLS || errors)
    throw new Error(`generated repository misread: ${m.h.skills.length} skills, ${errors} errors`);
  ctx.log(
    `discovery.ms      ${Math.round(m.total)} ms   (regression guard < 3000; head ${Math.round(m.head)} + base ${Math.round(m.base)} + classify ${Math.round(m.classify)}; ${SKILLS} skills, median of ${RUNS})`,
  );
  ctx.log(
    `discovery.fullCompareMs ${Math.round(full.total)} ms   (one run; no changed-file list: head ${Math.round(full.head)} + base ${Math.round(full.base)} + classify ${Math.round(full.classify)})`,
  );
  ctx.log(
    `discovery.walkHeadMs ${Math.round(walkMs)} ms   (one run; head's files in a folder that is no git checkout: one walk)`,
  );
  // The pipeline's detect stage also looks for near-duplicate descriptions over all of head's skills.
  const n0 = performance.now();
  const nearDuplicates = nearDuplicateWarnings(m.h.skills).length;
  const nearDuplicatesMs = performance.now() - n0;
  ctx.log(
    `discovery.nearDuplicatesMs ${Math.round(nearDuplicatesMs)} ms   (near-duplicate descriptions over ${SKILLS} skills: ${nearDuplicates} warnings)`,
  );
  ctx.log(`discovery.changes ${changed.join(", ")}`);
  ctx.log(`discovery.generateMs ${Math.round(generateMs)} ms   (writing the repositories, not discovery)`);
  return {
    discovery: {
      ms: Math.round(m.total),
      skills: SKILLS,
      suites: SKILLS / SUITE_EVERY,
      headMs: Math.round(m.head),
      baseMs: Math.round(m.base),
      classifyMs: Math.round(m.classify),
      fullCompareMs: Math.round(full.total),
      walkHeadMs: Math.round(walkMs),
      nearDuplicatesMs: Math.round(nearDuplicatesMs),
      generateMs: Math.round(generateMs),
      changes: changed,
    },
  };
}
