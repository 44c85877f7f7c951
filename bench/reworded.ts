import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseDocument } from "yaml";
import type { Report } from "../src/model/index.js";
import type { BenchContext } from "./types.js";

/**
 * `reworded`: real skills treated as reworded by a pull request — each one's description and first line of prose
 * changed, no command —
 * run with a `command` agent that carries out the skill's own fenced `sh`/`bash` blocks in both arms
 * (fenced-agent.mjs), observed. A harmless rewording must never block: `reworded.blocked` counts skills with a
 * blocking root, `reworded.risky` those with a blocking `risky-action` root (each printed with its reason).
 * `--corpus DIR[,DIR…]`: where skill folders (holding a SKILL.md) are; `--skills N` (default 1000) of those with a
 * fenced shell block, sampled by a fixed seed; `--offset M` (default 0) skips the sample's first M (to resume a
 * run: the same seed gives the same order); `--batch K` (default 50) skills per `skillgate run`. Needs
 * `npm run bundle` first.
 */
const FENCE = /^\s*```(?:sh|bash)[ \t]*\n[\s\S]*?^\s*```/m;

function skillFolders(root: string): string[] {
  const out = execFileSync("find", [root, "-name", "SKILL.md", "-type", "f"], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  return out
    .split("\n")
    .filter(Boolean)
    .map((f) => f.slice(0, -"/SKILL.md".length))
    .sort();
}

/** A fixed-seed shuffle (mulberry32): the same sample every run. */
function sample<T>(items: T[], n: number, seed = 41): T[] {
  const a = [...items];
  let s = seed;
  const rand = () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a.slice(0, n);
}

/** SKILL.md with its name set to `name` and, when `reword`, its description reworded; undefined when unreadable. */
function rewrite(md: string, name: string, reword: boolean): string | undefined {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(md);
  if (!m) return undefined;
  const doc = parseDocument(m[1]!);
  const description = doc.get("description");
  if (doc.errors.length || typeof description !== "string" || !description.trim()) return undefined;
  doc.set("name", name);
  if (reword) doc.set("description", `In short: ${description.trim()}`);
  const body = md.slice(m[0].length);
  return `---\n${doc.toString({ lineWidth: 0 }).trimEnd()}\n---\n${reword ? rewordBody(body) : body}`;
}

/**
 * The body with its first line of prose (outside code fences, not a heading) reworded, else a sentence added: a
 * change of the body runs the skill's cases in both arms (a description alone would run routing only).
 */
function rewordBody(body: string): string {
  const lines = body.split("\n");
  let fenced = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (/^\s*(?:```|~~~)/.test(l)) fenced = !fenced;
    else if (!fenced && /^[A-Za-z]/.test(l)) {
      lines[i] = `In short: ${l}`;
      return lines.join("\n");
    }
  }
  return `${body}\n\nIn short: follow the steps above.\n`;
}

function writeArm(dir: string, skills: { src: string; name: string; md: string }[], agent: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, ".skillgate.yml"),
    `agent:\n  adapter: command\n  command: ${JSON.stringify(`${process.execPath} ${agent}`)}\ntrials: 1\ncache:\n  enabled: false\nconcurrency: 2\ntimeoutSeconds: 90\nbudget: { maxAgentCalls: 100000, maxUsd: 1000 }\nrouting: { casePrompts: 0 }\ncompetitors: { maxPrompts: 0 }\nverdict:\n  baseDepth: 1\n`,
  );
  for (const s of skills) {
    const to = join(dir, ".claude/skills", s.name);
    cpSync(s.src, to, { recursive: true, dereference: false, filter: (p) => !p.endsWith("/.git") });
    writeFileSync(join(to, "SKILL.md"), s.md);
    const evals = join(dir, ".agent/evals", s.name);
    mkdirSync(join(evals, "prompts"), { recursive: true });
    writeFileSync(join(evals, "meta.json"), JSON.stringify({ trials: 1, thresholds: {} }));
    writeFileSync(
      join(evals, "prompts/work.yaml"),
      "id: work\nprompt: Use the skill on this project.\nassertions:\n  - id: answered\n    type: contains\n    value: done\n",
    );
  }
}

interface Batch {
  skills: number;
  /** Agent calls made, trials whose agent ran a command, observed actions (both arms). */
  calls: number;
  ran: number;
  actions: number;
  /** Risky-action roots: seen in both arms (reported), head-only but reached from the base's own code (reported). */
  both: number;
  further: number;
  exit: number | null;
  blocked: { skill: string; src: string; roots: string[] }[];
  ms: number;
}

function runBatch(ctx: BenchContext, cli: string, batch: string[], index: number): Batch {
  const dir = join(ctx.tmp, `reworded-${index}`);
  const agent = join(ctx.root, "bench", "fenced-agent.mjs");
  const base: { src: string; name: string; md: string }[] = [];
  const head: typeof base = [];
  batch.forEach((src, i) => {
    const name = `s${String(index * 1000 + i).padStart(5, "0")}`;
    const md = readFileSync(join(src, "SKILL.md"), "utf8");
    const b = rewrite(md, name, false);
    const h = rewrite(md, name, true);
    if (b && h) {
      base.push({ src, name, md: b });
      head.push({ src, name, md: h });
    }
  });
  writeArm(join(dir, "base"), base, agent);
  writeArm(join(dir, "head"), head, agent);
  const out = join(dir, "report.json");
  const started = Date.now();
  const r = spawnSync(
    process.execPath,
    [cli, "run", "--repo", join(dir, "head"), "--base-dir", join(dir, "base"), "--quiet", "--json", out],
    { encoding: "utf8", env: { ...process.env, XDG_CACHE_HOME: join(dir, "cache") }, maxBuffer: 1 << 28 },
  );
  const report = existsSync(out) ? (JSON.parse(readFileSync(out, "utf8")) as Report) : undefined;
  const srcOf = new Map(head.map((s) => [s.name, s.src]));
  const blocked = (report?.skills ?? [])
    .map((s) => ({
      skill: s.name,
      src: srcOf.get(s.name) ?? "?",
      roots: s.roots.filter((x) => x.blocking).map((x) => `${x.id}: ${x.message ?? ""}`.slice(0, 300)),
    }))
    .filter((s) => s.roots.length > 0);
  if (!report)
    blocked.push({
      skill: "(batch)",
      src: dir,
      roots: [`no report: exit ${r.status} ${r.stderr.slice(-500)}`],
    });
  const transcripts = (report?.skills ?? []).flatMap((s) => s.transcripts ?? []);
  const riskyRoots = (report?.skills ?? []).flatMap((s) => s.roots.filter((x) => x.kind === "risky-action"));
  return {
    skills: head.length,
    calls: report?.cost.agentCalls ?? 0,
    ran: transcripts.filter((t) => (t.toolCalls?.length ?? 0) > 0).length,
    actions: transcripts.reduce((a, t) => a + (t.observed?.length ?? 0), 0),
    both: riskyRoots.filter((x) => x.status === "pre-existing").length,
    further: riskyRoots.filter((x) => x.status === "not-significant").length,
    exit: r.status,
    blocked,
    ms: Date.now() - started,
  };
}

export async function bench(ctx: BenchContext): Promise<Record<string, unknown>> {
  const cli = join(ctx.root, "dist", "cli.js");
  if (!existsSync(cli)) throw new Error("dist/ is missing: run `npm run bundle` first");
  if (typeof ctx.flags.corpus !== "string") throw new Error("reworded needs --corpus DIR[,DIR…]");
  const n = Number(ctx.flags.skills ?? 1000);
  const k = Number(ctx.flags.batch ?? 50);
  const withCommands = ctx.flags.corpus
    .split(",")
    .flatMap(skillFolders)
    .filter((d) => FENCE.test(readFileSync(join(d, "SKILL.md"), "utf8")));
  const offset = Number(ctx.flags.offset ?? 0);
  const chosen = sample(withCommands, offset + n).slice(offset);
  const batches: Batch[] = [];
  for (let i = 0; i * k < chosen.length && Date.now() < ctx.deadline; i++) {
    const b = runBatch(ctx, cli, chosen.slice(i * k, (i + 1) * k), i + Math.floor(offset / k));
    batches.push(b);
    ctx.log(
      `  batch ${i}: ${b.skills} skills, ${b.calls} agent calls, ${b.ran} trials ran commands, ${b.actions} risky actions observed, ${b.both} seen in both arms, ${b.further} reached from the base's code, exit ${b.exit}, ${b.blocked.length} blocked, ${Math.round(b.ms / 1000)} s`,
    );
    for (const s of b.blocked) ctx.log(`    ${s.skill} ${s.src}: ${s.roots.join(" | ")}`);
  }
  const skills = batches.reduce((a, b) => a + b.skills, 0);
  const blocked = batches.flatMap((b) => b.blocked);
  const risky = blocked.filter((s) => s.roots.some((r) => r.startsWith("risky-action/")));
  ctx.log(
    `reworded: ${skills} real skills with fenced shell blocks (of ${withCommands.length}), reworded, their commands run in both arms: ${blocked.length} blocked, ${risky.length} by a risky action (goal 0)`,
  );
  const sum = (f: (b: Batch) => number) => batches.reduce((a, b) => a + f(b), 0);
  return {
    reworded: {
      skills,
      candidates: withCommands.length,
      ran: sum((b) => b.ran),
      actions: sum((b) => b.actions),
      both: sum((b) => b.both),
      further: sum((b) => b.further),
      blocked: blocked.length,
      risky: risky.length,
    },
  };
}
