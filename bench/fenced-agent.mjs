// The `command` agent of bench/reworded.ts: it activates every skill installed for it and runs each fenced `sh` or
// `bash` block of its SKILL.md in the workspace (SKILL_DIR: the skill's folder), as a Bash tool call each, within a
// time budget. A routing trial runs nothing. What a real skill's own commands do, both arms do alike.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";

const BLOCK_MS = 5_000;
const BUDGET_MS = 20_000;
const prompt = readFileSync(0, "utf8");
const dir = ".agents/skills";
const trigger = process.env.SKILLGATE_MODE === "trigger";
const skills = existsSync(dir) && !trigger ? readdirSync(dir).sort() : [];
const started = Date.now();
const toolCalls = [];
for (const skill of skills) {
  const md = readFileSync(`${dir}/${skill}/SKILL.md`, "utf8");
  for (const m of md.matchAll(/^\s*```(?:sh|bash)[ \t]*\n([\s\S]*?)^\s*```/gm)) {
    const left = BUDGET_MS - (Date.now() - started);
    if (left <= 0) break;
    const env = { ...process.env, SKILL_DIR: `${dir}/${skill}` };
    const r = spawnSync("/bin/bash", ["-c", m[1]], {
      encoding: "utf8",
      timeout: Math.min(BLOCK_MS, left),
      env,
      stdio: ["ignore", "pipe", "pipe"],
      killSignal: "SIGKILL",
    });
    toolCalls.push({
      name: "Bash",
      input: { command: m[1] },
      output: `${r.stdout ?? ""}${r.stderr ?? ""}`.slice(0, 500),
    });
  }
}
const answer = trigger ? "routing" : `done: ${prompt.trim().slice(0, 40)}`;
process.stdout.write(JSON.stringify({ output: answer, skillsActivated: skills, toolCalls }));
