/**
 * What users see, measured (#38 item 9): the check's conclusion (the CLI's exit code) over a family of realistic
 * suite shapes, warm as the README's workflows run, at the defaults `skillgate init` scaffolds (5 trials per case;
 * thresholds 0.8 / lift 0.3 / 0.8 / 0.8). Every PR is two whole `dist/cli.js` processes: the default branch's run
 * on the base (a sweep storing `verdict.baseDepth` trials per case in a cache of the PR's own), then the PR's run
 * against that base reading them. The agent is a `sh` script drawing from `/dev/urandom` (independent of
 * skillgate's seed): each installed SKILL.md lists, per case or query tag, the probability that the case passes or
 * that this skill fires (`c-3=900`, `q-notes-2=1000`), so head and base behave as their SKILL.md say.
 * - A/A PRs reword the edited skill's text (a nonce per PR), its probabilities unchanged: any non-zero exit counts.
 * - Power PRs drop one case 0.9 → 0.5 (`assertion`) or one should-fire query 1.0 → 0.3 (`trigger`): found when the
 *   PR exits 1 with that check a blocking root; an `inconclusive` root is a miss.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Report } from "../src/model/index.js";
import type { BenchContext } from "./types.js";
import { rateWithHalfWidth } from "./verdict-suite.js";

const exec = promisify(execFile);

/** One skill of a shape: pass probability per case, fire probability per should-fire / should-not-fire query. */
interface SkillSpec {
  name: string;
  cases: number[];
  fire: number[];
  nofire: number[];
  /** Other skills' should-fire tags this skill also catches, with their probability (overlapping descriptions). */
  steals?: Record<string, number>;
  /** The suite's format: skillgate's case files (default), or skill-creator's evals.json graded by a judge. */
  format?: "skill-creator";
}

interface Shape {
  name: string;
  what: string;
  skills: SkillSpec[];
  /** The skill every PR edits (the first skill unless said). */
  edited?: string;
  /** Where a power PR's regression applies: a case or should-fire query index holding 0.9 / 1.0. */
  regress?: { case: number; query: number };
}

const INIT_META = {
  skillVersion: "1",
  suiteVersion: "1",
  trials: 5,
  thresholds: {
    discriminatorPassRate: 0.8,
    discriminatorLift: 0.3,
    triggerPrecision: 0.8,
    triggerRecall: 0.8,
  },
};

const steady = (n: number, p = 1) => Array.from({ length: n }, () => p);

export const SHAPES: Shape[] = [
  {
    name: "defaults",
    what: "six cases at 0.9–1, six should-fire and three should-not-fire queries",
    skills: [
      { name: "notes", cases: [1, 1, 0.95, 0.95, 0.9, 0.9], fire: [1, 1, 1, 1, 0.95, 1], nofire: [0, 0, 0] },
    ],
    regress: { case: 4, query: 0 },
  },
  {
    name: "never-fires",
    what: "a should-fire query that never fires at base (recall 5/6)",
    skills: [{ name: "notes", cases: steady(6), fire: [1, 1, 1, 1, 1, 0], nofire: [0, 0, 0] }],
  },
  {
    name: "near-threshold",
    what: "cases at 0.8–0.9 beside a pass-rate threshold of 0.8",
    skills: [
      {
        name: "notes",
        cases: [0.9, 0.85, 0.85, 0.8, 0.9, 0.85, 0.8, 0.9],
        fire: steady(6),
        nofire: [0, 0, 0],
      },
    ],
    regress: { case: 0, query: 0 },
  },
  {
    name: "always-fails",
    what: "a case that always fails at base (pass rate 5/6)",
    skills: [{ name: "notes", cases: [1, 1, 1, 1, 1, 0], fire: steady(6), nofire: [0, 0, 0] }],
  },
  {
    name: "flaky",
    what: "a flaky case at 0.5 and a should-not-fire query firing 0.2",
    skills: [
      { name: "notes", cases: [1, 1, 1, 1, 1, 1, 1, 1, 1, 0.5], fire: steady(6), nofire: [0, 0, 0.2] },
    ],
  },
  {
    name: "judge",
    what: "a skill-creator evals.json suite (expectations only) graded by a command judge",
    skills: [
      {
        name: "notes",
        format: "skill-creator",
        cases: [1, 1, 0.95, 0.95, 0.9, 0.9],
        fire: steady(6),
        nofire: [0, 0, 0],
      },
    ],
    regress: { case: 4, query: 0 },
  },
  {
    name: "catalogue",
    what: "a description edit among four overlapping skills",
    edited: "notes",
    skills: [
      {
        name: "notes",
        cases: steady(4),
        fire: [1, 1, 1, 0.95],
        nofire: [0, 0],
        steals: { "q-digest-0": 0.1 },
      },
      {
        name: "digest",
        cases: steady(4),
        fire: [0.9, 1, 1, 1],
        nofire: [0, 0],
        steals: { "q-notes-3": 0.05 },
      },
      { name: "summary", cases: steady(4), fire: steady(4), nofire: [0, 0] },
      { name: "minutes", cases: steady(4), fire: steady(4), nofire: [0, 0] },
    ],
  },
];

/** `c-<i>` passes, `q-<skill>-<i>` / `n-<skill>-<i>` fires this skill, with the listed probability (thousandths). */
export const AGENT = `#!/bin/sh
IFS= read -r p
tag=\${p%% *}
roll() { r=$(od -An -N2 -tu2 /dev/urandom); r=$(( r * 1000 / 65536 )); }
prob() {
  v=0
  while IFS= read -r line; do
    case "$line" in *" $1="*) x=\${line#*" $1="}; v=\${x%%[!0-9]*}; break;; esac
  done < "$2"
}
if [ "$SKILLGATE_MODE" != trigger ]; then
  f=.agents/skills/$SKILLGATE_SKILL/SKILL.md
  v=0; [ -f "$f" ] && prob "$tag" "$f"
  roll; if [ "$r" -lt "$v" ]; then echo '{"output":"PASS"}'; else echo '{"output":"FAIL"}'; fi
  exit 0
fi
for d in .agents/skills/*/; do
  s=\${d%/}; s=\${s##*/}
  prob "$tag" "$d/SKILL.md"
  roll; if [ "$r" -lt "$v" ]; then echo "{\\"output\\":\\"ok\\",\\"skillsActivated\\":[\\"$s\\"]}"; exit 0; fi
done
echo '{"output":"ok","skillsActivated":[]}'
`;

/** The command judge of the `judge` shape: an expectation holds when the agent's output is the line PASS. */
export const JUDGE = `#!/bin/sh
if grep -qx PASS; then echo '{"passed":true,"evidence":"PASS"}'; else echo '{"passed":false,"evidence":"no PASS"}'; fi
`;

type Kind = "aa" | "assertion" | "trigger";

const milli = (p: number) => Math.round(p * 1000);

/** A skill's SKILL.md: its probabilities in its description (what the router reads) and body. */
function skillMd(s: SkillSpec, nonce: string): string {
  const fire = s.fire.map((p, i) => ` q-${s.name}-${i}=${milli(p)}`).join("");
  const nofire = s.nofire.map((p, i) => ` n-${s.name}-${i}=${milli(p)}`).join("");
  const steals = Object.entries(s.steals ?? {})
    .map(([t, p]) => ` ${t}=${milli(p)}`)
    .join("");
  const body = s.cases.map((p, i) => ` c-${i}=${milli(p)}`).join("\n");
  return `---\nname: ${s.name}\ndescription: Handles ${s.name} work (${nonce}).${fire}${nofire}${steals}\n---\nFollow these (${nonce}).\n${body}\n`;
}

/** One case file per case in skillgate's format, or one skill-creator evals.json with an expectation per case. */
function suiteFiles(s: SkillSpec): Record<string, string> {
  if (s.format === "skill-creator")
    return {
      "evals.json": JSON.stringify({
        skill_name: s.name,
        evals: s.cases.map((_, i) => ({
          id: i,
          prompt: `c-${i} answer PASS or FAIL`,
          expectations: ["The answer reports that the work passed."],
        })),
      }),
    };
  return Object.fromEntries(
    s.cases.map((_, i) => [
      `prompts/c-${i}.yaml`,
      `id: c-${i}\nprompt: c-${i} answer PASS or FAIL\nassertions:\n  - id: D:answer\n    type: contains\n    value: PASS\n`,
    ]),
  );
}

/** The check a power PR regresses in case `i` of the edited skill. */
function caseCheck(shape: Shape, i: number): string {
  const edited = shape.skills.find((s) => s.name === (shape.edited ?? shape.skills[0]!.name))!;
  return edited.format === "skill-creator" ? `eval-${i}/expectation-1` : `c-${i}/D:answer`;
}

function writeRepo(dir: string, skills: SkillSpec[], nonces: Record<string, string>, cache: string) {
  const put = (rel: string, text: string) => {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  const judged = skills.some((s) => s.format === "skill-creator");
  put(
    ".skillgate.yml",
    `agent:\n  adapter: command\n  command: ${JSON.stringify(join(dir, "..", "agent.sh"))}\ncache:\n  dir: ${JSON.stringify(cache)}\n${judged ? `judge:\n  adapter: command\n  command: ${JSON.stringify(join(dir, "..", "judge.sh"))}\n` : ""}`,
  );
  for (const s of skills) {
    put(`.claude/skills/${s.name}/SKILL.md`, skillMd(s, nonces[s.name] ?? "v1"));
    const evals = `.agent/evals/${s.name}`;
    put(`${evals}/meta.json`, JSON.stringify(INIT_META));
    for (const [rel, text] of Object.entries(suiteFiles(s))) put(`${evals}/${rel}`, text);
    put(
      `${evals}/trigger-eval.json`,
      JSON.stringify({
        shouldFire: s.fire.map((_, i) => `q-${s.name}-${i} please do the ${s.name} task`),
        shouldNotFire: s.nofire.map((_, i) => `n-${s.name}-${i} an unrelated chore`),
      }),
    );
  }
}

/** The head's skills: the base's, with one case or query of the edited skill regressed for a power PR. */
function headSkills(shape: Shape, kind: Kind): SkillSpec[] {
  const edited = shape.edited ?? shape.skills[0]!.name;
  return shape.skills.map((s) => {
    if (s.name !== edited || kind === "aa") return s;
    const r = shape.regress!;
    if (kind === "assertion") return { ...s, cases: s.cases.map((p, i) => (i === r.case ? 0.5 : p)) };
    return { ...s, fire: s.fire.map((p, i) => (i === r.query ? 0.3 : p)) };
  });
}

async function cli(ctx: BenchContext, args: string[]): Promise<number> {
  try {
    await exec(process.execPath, [join(ctx.root, "dist/cli.js"), ...args, "--quiet"], {
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, SKILLGATE_ISOLATION: "none" },
    });
    return 0;
  } catch (e) {
    const code = (e as { code?: number }).code;
    if (typeof code !== "number") throw e;
    return code;
  }
}

interface PrResult {
  code: number;
  blockedBy: string[];
  found: boolean;
  calls: number;
  seconds: number;
}

async function onePr(ctx: BenchContext, dir: string, shape: Shape, kind: Kind, n: number): Promise<PrResult> {
  const cache = join(dir, "cache");
  const base = join(dir, "repo-base");
  const head = join(dir, "repo-head");
  const edited = shape.edited ?? shape.skills[0]!.name;
  writeRepo(base, shape.skills, {}, cache);
  writeRepo(head, headSkills(shape, kind), { [edited]: `reworded ${n}` }, cache);
  writeFileSync(join(dir, "agent.sh"), AGENT, { mode: 0o755 });
  writeFileSync(join(dir, "judge.sh"), JUDGE, { mode: 0o755 });
  const t0 = Date.now();
  // The default branch's run stores the base's trials (its own verdict does not matter here).
  const stored = await cli(ctx, ["run", "--repo", base]);
  if (stored > 1) throw new Error(`verdict shapes: the base's sweep of ${shape.name} exited ${stored}`);
  const out = join(dir, "report.json");
  const code = await cli(ctx, ["run", "--repo", head, "--base-dir", base, "--json", out]);
  if (code > 1) throw new Error(`verdict shapes: a ${kind} PR of ${shape.name} exited ${code}`);
  const report = JSON.parse(readFileSync(out, "utf8")) as Report;
  const target =
    kind === "assertion"
      ? caseCheck(shape, shape.regress!.case)
      : kind === "trigger"
        ? `trigger/fire/${shape.regress!.query}`
        : "";
  const blockedBy = report.blockingRoots.map((r) => `${r.status} ${r.id}`);
  return {
    code,
    blockedBy,
    found: code === 1 && report.blockingRoots.some((r) => r.id === target && r.status === "new"),
    calls: report.cost.agentCalls,
    seconds: (Date.now() - t0) / 1000,
  };
}

/** The PRs to run: A/A of every shape, power PRs of the shapes with a regression point. */
function plan(prs: number, only?: string, kinds?: string): { shape: Shape; kind: Kind; n: number }[] {
  const jobs: { shape: Shape; kind: Kind; n: number }[] = [];
  const wanted = (k: Kind) => !kinds || kinds.split(",").includes(k);
  for (let n = 0; n < prs; n++)
    for (const shape of SHAPES.filter((s) => !only || only.split(",").includes(s.name))) {
      if (wanted("aa")) jobs.push({ shape, kind: "aa", n });
      for (const kind of ["assertion", "trigger"] as const)
        if (shape.regress && wanted(kind)) jobs.push({ shape, kind, n });
    }
  return jobs;
}

export async function bench(ctx: BenchContext): Promise<Record<string, unknown>> {
  const prs = typeof ctx.flags.shapesPrs === "string" ? Number(ctx.flags.shapesPrs) : 3;
  const parallel = typeof ctx.flags.shapesParallel === "string" ? Number(ctx.flags.shapesParallel) : 2;
  const only = typeof ctx.flags.shapesOnly === "string" ? ctx.flags.shapesOnly : undefined;
  const root = join(ctx.tmp, "verdict-shapes");
  mkdirSync(root, { recursive: true });
  const kinds = typeof ctx.flags.shapesKinds === "string" ? ctx.flags.shapesKinds : undefined;
  const jobs = plan(prs, only, kinds);
  const results = new Map<string, PrResult[]>();
  let next = 0;
  const worker = async () => {
    for (let j = next++; j < jobs.length && Date.now() < ctx.deadline; j = next++) {
      const { shape, kind, n } = jobs[j]!;
      const dir = join(root, `${shape.name}-${kind}-${n}`);
      mkdirSync(dir, { recursive: true });
      const r = await onePr(ctx, dir, shape, kind, n);
      // A power PR that missed keeps its repositories and report with `--keep-tmp` (to see why it missed).
      if (ctx.flags.keepTmp && kind !== "aa" && !r.found) ctx.log(`verdict shapes: missed PR kept in ${dir}`);
      else rmSync(dir, { recursive: true, force: true });
      const key = `${shape.name}/${kind}`;
      results.set(key, [...(results.get(key) ?? []), r]);
      if (ctx.flags.shapesLog) ctx.log(`verdict shapes pr ${JSON.stringify({ key, ...r })}`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  const figures: Record<string, unknown> = {};
  const pct = (x: { rate: number; halfWidth: number }) =>
    `${(100 * x.rate).toFixed(1)} % ± ${(100 * x.halfWidth).toFixed(1)}`;
  for (const [key, rs] of [...results].sort(([a], [b]) => a.localeCompare(b))) {
    const kind = key.split("/")[1] as Kind;
    const hits = kind === "aa" ? rs.filter((r) => r.code !== 0).length : rs.filter((r) => r.found).length;
    const rate = rateWithHalfWidth(hits, rs.length);
    const calls = rs.reduce((a, r) => a + r.calls, 0) / rs.length;
    const seconds = rs.reduce((a, r) => a + r.seconds, 0) / rs.length;
    const blockers = [...new Set(rs.flatMap((r) => (kind === "aa" ? r.blockedBy : [])))].slice(0, 4);
    figures[key] = {
      prs: rs.length,
      rate,
      callsPerPr: Number(calls.toFixed(1)),
      secondsPerPr: Number(seconds.toFixed(1)),
      blockers,
    };
    ctx.log(
      `verdict shapes ${key}: ${rs.length} PRs, ${kind === "aa" ? "non-zero exit" : "found"} ${pct(rate)} (goal ${kind === "aa" ? "≤ 1 %" : "≥ 90 %"}); ${calls.toFixed(0)} PR-paid calls; ${seconds.toFixed(1)} s per PR${blockers.length ? `; blocked by ${blockers.join(", ")}` : ""}`,
    );
  }
  return { "verdict.shapes": figures };
}
