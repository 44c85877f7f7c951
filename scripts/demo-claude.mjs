// `npm run demo:claude`: the demo pull request (examples/demo-repo against examples/demo-repo-base) evaluated with
// the real Claude Code CLI as the agent, offline: its model is a scripted Anthropic API on 127.0.0.1 (the tests'
// test/support/scripted-anthropic.ts), whose answers come from the demo agent (examples/demo-agent/agent.mjs).
// Each model request is answered as that agent would act: a Skill call when it routes the prompt to a skill, the
// files it writes as Write calls that Claude Code carries out in the trial workspace, then its answer. Everything
// else is the real harness: the CLI, its skill listing and Skill tool, the sandbox, the trigger stop, the verdict.
// Usage: npm run demo:claude [-- skillgate run options, e.g. --json out.json]
import { execFile, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { delimiter, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const demoAgent = join(root, "examples/demo-agent/agent.mjs");

/** The Claude Code CLI: the devDependency `npm ci` installs, else one on PATH. */
function findClaude() {
  const local = join(root, "node_modules/.bin/claude");
  if (existsSync(local)) return local;
  for (const dir of (process.env.PATH ?? "").split(delimiter))
    if (dir && existsSync(join(dir, "claude"))) return join(dir, "claude");
  return undefined;
}

/** The demo repository's skills: the scripted model routes among these, as the CLI lists them. */
const DEMO_SKILLS = new Set(
  ["examples/demo-repo", "examples/demo-repo-base"].flatMap((r) =>
    readdirSync(join(root, r, ".claude/skills")),
  ),
);

/** The user's prompt: the first text block of the conversation that is not a system reminder. */
function promptOf(body) {
  for (const m of body.messages ?? []) {
    if (m.role !== "user") continue;
    const blocks = typeof m.content === "string" ? [{ type: "text", text: m.content }] : (m.content ?? []);
    const b = blocks.find(
      (x) => x?.type === "text" && x.text.trim() && !x.text.startsWith("<system-reminder>"),
    );
    if (b) return b.text;
  }
  return "";
}

/** The demo skills the CLI listed for the Skill tool (`- name: description`), name → description. */
function catalogueOf(raw) {
  const listed = new Map();
  for (const m of raw.matchAll(/\\n- ([a-z0-9-]+): ((?:[^\\"]|\\[^n])*)/g))
    if (DEMO_SKILLS.has(m[1]) && !listed.has(m[1])) listed.set(m[1], m[2].replace(/\\(.)/g, "$1"));
  return listed;
}

/** Runs the demo agent on `prompt` with `skills` (name → SKILL.md text) installed; its reply and the files it wrote. */
function actAsDemoAgent(prompt, skills, seed) {
  const dir = mkdtempSync(join(tmpdir(), "skillgate-demo-model-"));
  try {
    for (const [name, text] of skills) {
      mkdirSync(join(dir, ".agents/skills", name), { recursive: true });
      writeFileSync(join(dir, ".agents/skills", name, "SKILL.md"), text);
    }
    const r = spawnSync(process.execPath, [demoAgent], {
      cwd: dir,
      input: prompt,
      encoding: "utf8",
      env: { PATH: process.env.PATH, SKILLGATE_SEED: String(seed) },
    });
    const reply = JSON.parse(r.stdout);
    const files = [];
    const walk = (d) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = join(d, e.name);
        if (e.isDirectory()) {
          if (p !== join(dir, ".agents")) walk(p);
        } else files.push({ file_path: relative(dir, p), content: readFileSync(p, "utf8") });
      }
    };
    walk(dir);
    return { ...reply, files };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The model: one conversation per Claude Code session, seeded by its session id like a trial by its seed. */
function demoModel({ text, toolUse }) {
  const answers = new Map();
  return (req) => {
    if (!req.hasTools) return text("ok");
    const session = /session_id\\?":\\?"([\w-]+)/.exec(JSON.stringify(req.body.metadata ?? {}))?.[1] ?? "";
    const seed = createHash("sha256").update(session).digest().readUInt32BE(0) || 1;
    const prompt = promptOf(req.body);
    const catalogue = catalogueOf(req.raw);
    const stub = (name, body = "") => `---\nname: ${name}\ndescription: ${catalogue.get(name)}\n---\n${body}`;
    const done = answers.get(session);
    if (done && req.lastUserText.includes("File created successfully")) return text(done);
    const loaded = /Base directory for this skill: [^\n]*\n([\s\S]*)/.exec(req.lastUserText);
    const chosen = req.turn > 0 ? /Launching skill: ([a-z0-9-]+)/.exec(req.raw)?.[1] : undefined;
    const skills = [...catalogue.keys()].map((n) => [n, stub(n, n === chosen && loaded ? loaded[1] : "")]);
    const act = actAsDemoAgent(prompt, skills, seed);
    const routed = act.skillsActivated?.[0];
    if (req.turn === 0 && routed) return toolUse("Skill", { skill: routed });
    if (act.files.length === 0) return text(act.output);
    answers.set(session, act.output);
    return { kind: "tools", calls: act.files.map((f) => ({ name: "Write", input: f })) };
  };
}

const claude = findClaude();
if (!claude) {
  console.error(
    "demo:claude needs the Claude Code CLI: run `npm ci` in this clone (it installs it as a devDependency), or install it with `npm install -g @anthropic-ai/claude-code` (Node ≥ 22).",
  );
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), "skillgate-demo-claude-"));
try {
  await build({
    entryPoints: [join(root, "test/support/scripted-anthropic.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: join(work, "scripted-anthropic.mjs"),
    logLevel: "error",
  });
  const scripted = await import(join(work, "scripted-anthropic.mjs"));
  const server = await scripted.startScriptedAnthropic(demoModel(scripted));
  // The operator's own config (outside the repository, so it applies as it is): one trial per case and query and
  // no confirmation trials, since each trial here is a whole CLI process (about 50 of them).
  const config = join(work, "demo-claude.yml");
  writeFileSync(
    config,
    [
      "agent:",
      "  adapter: claude-code",
      `  command: ${JSON.stringify(claude)}`,
      "triggerRuns: 1",
      "competitors: { maxPrompts: 0 }",
      "verdict: { alpha: 0.01, inconclusive: fail, maxConfirmationTrials: 0 }",
      "timeoutSeconds: 120",
      // The scripted model answers at once, so each trial is the CLI's own CPU work: more of them at a time than
      // twice the cores only makes each slower (the default, 16 per CPU, is for agents that wait on a model API).
      `concurrency: ${Math.max(2, 2 * availableParallelism())}`,
      "",
    ].join("\n"),
  );
  console.error(`demo:claude: Claude Code ${claude}, its model scripted on ${server.url} (no network)`);
  const status = await new Promise((done) => {
    const child = execFile(
      process.execPath,
      [
        join(root, "dist/cli.js"),
        "run",
        "--repo",
        join(root, "examples/demo-repo"),
        "--base-dir",
        join(root, "examples/demo-repo-base"),
        "--config",
        config,
        "--no-cache",
        "--trials",
        "1",
        ...process.argv.slice(2),
      ],
      { env: { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: "sk-ant-scripted-demo" } },
    );
    child.stdout.pipe(process.stdout);
    child.stderr.pipe(process.stderr);
    child.on("exit", (code) => done(code ?? 3));
  });
  await server.close();
  process.exitCode = status;
} finally {
  rmSync(work, { recursive: true, force: true });
}
