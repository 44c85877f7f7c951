#!/usr/bin/env node
// A command-protocol agent for tests. What it does is chosen by words in the prompt (stdin):
//   ECHOENV   output = JSON of its environment and cwd listing
//   WRITE     writes src/answer.ts and answers in plain text
//   JSON      answers with the JSON protocol (skillsActivated, toolCalls, usage)
//   BADJSON   a JSON object without "output"
//   GARBAGE   prints bytes that are not a protocol object
//   HUGE      prints 10 MB
//   CRASH     exits 3 with a message on stderr
//   HANG      starts a grandchild (pid written to $SKILLGATE_TEST_AGENT_STATE/grandchild-<trial>.pid), then sleeps forever
//   FLAKY     hangs on the first attempt of a trial ($SKILLGATE_TEST_AGENT_STATE marks it), answers on the next
//   READSKILL reads the skill: from the workspace, else from $SKILLGATE_TEST_AGENT_REPO, and reports the call
//   SLOW      logs start/end to $SKILLGATE_TEST_AGENT_STATE/overlap.log; waits until a second SLOW agent runs (≤ 3 s)
import { spawn } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";

const prompt = readFileSync(0, "utf8");
const state = process.env.SKILLGATE_TEST_AGENT_STATE;
const trial = process.env.SKILLGATE_TRIAL;
const has = (w) => prompt.includes(w);

if (has("CRASH")) {
  process.stderr.write("fake agent: segmentation fault (simulated)\n");
  process.exit(3);
}
if (
  has("HANG") ||
  (has("FLAKY") && !existsSync(join(state, `flaky-${process.env.SKILLGATE_CASE}-${trial}`)))
) {
  if (has("FLAKY")) writeFileSync(join(state, `flaky-${process.env.SKILLGATE_CASE}-${trial}`), "1");
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  if (state) writeFileSync(join(state, `grandchild-${trial}.pid`), String(child.pid));
  // Confined, that pid is one of its own pid namespace: say which namespace, so the test can look for survivors.
  if (state) writeFileSync(join(state, `grandchild-${trial}.ns`), readlinkSync("/proc/self/ns/pid"));
  setInterval(() => {}, 1000);
} else if (has("SLOW")) {
  // Confined trials run as different uids: what one makes here, the next must be able to write.
  process.umask(0);
  // Waits (up to 3 s) until another SLOW agent runs at the same time, so parallelism is observed, not hoped for.
  const running = join(state, "running");
  mkdirSync(running, { recursive: true });
  // Each confined agent is pid 2 of its own namespace: the trial number tells them apart.
  const mine = join(running, `${trial}-${process.pid}`);
  appendFileSync(join(state, "overlap.log"), "start\n");
  writeFileSync(mine, "");
  const deadline = Date.now() + 3000;
  const wait = setInterval(() => {
    if (readdirSync(running).length < 2 && Date.now() < deadline) return;
    clearInterval(wait);
    setTimeout(() => {
      appendFileSync(join(state, "overlap.log"), "end\n");
      rmSync(mine);
      process.stdout.write("slow done");
    }, 50);
  }, 20);
} else if (has("ECHOENV")) {
  const listing = readdirSync(".", { recursive: true }).map(String).sort();
  process.stdout.write(JSON.stringify({ output: JSON.stringify({ env: process.env, listing, prompt }) }));
} else if (has("WRITE")) {
  mkdirSync("src", { recursive: true });
  writeFileSync("src/answer.ts", "export const answer = 42;\n");
  process.stdout.write("I wrote src/answer.ts; the answer is 42.");
} else if (has("BADJSON")) {
  process.stdout.write(JSON.stringify({ result: "no output field" }));
} else if (has("JSON")) {
  process.stdout.write(
    JSON.stringify({
      output: "334 333 333",
      skillsActivated: ["split-cents"],
      toolCalls: [{ name: "Read", input: { path: ".agents/skills/split-cents/SKILL.md" }, output: "…" }],
      usage: { inputTokens: 1000, outputTokens: 50, costUsd: 0.25 },
    }),
  );
} else if (has("GARBAGE")) {
  process.stdout.write(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x00, 0x01, 0x0a, 0x7d, 0x7d]));
} else if (has("HUGE")) {
  const line = `${"x".repeat(1023)}\n`;
  const chunk = line.repeat(1024);
  for (let i = 0; i < 10; i++) process.stdout.write(chunk);
} else if (has("READSKILL")) {
  const name = process.env.SKILLGATE_SKILL;
  const local = join(".agents/skills", name, "SKILL.md");
  const path = existsSync(local)
    ? local
    : join(process.env.SKILLGATE_TEST_AGENT_REPO ?? ".", ".claude/skills", name, "SKILL.md");
  let content = "";
  try {
    content = readFileSync(path, "utf8");
  } catch {}
  process.stdout.write(
    JSON.stringify({
      output: `read ${content.length} chars`,
      toolCalls: [{ name: "Read", input: { file_path: path } }],
    }),
  );
} else {
  process.stdout.write(`plain answer to: ${prompt.trim()}`);
}
