#!/usr/bin/env node
// A minimal agent for skillgate's `command` adapter (docs/agent-protocol.md), in Node with no dependencies.
// Configure it in .skillgate.yml as `agent: {adapter: command, command: node agents/agent.mjs}` (a relative path
// resolves from the repository root). Replace `answer()` with a call to your own agent or model.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

// The prompt arrives on stdin; the trial workspace is the current folder.
const prompt = readFileSync(0, "utf8");

// The skills installed for this trial (none in a baseline trial), each with its SKILL.md.
const skillsDir = ".agents/skills";
const skills = existsSync(skillsDir)
  ? readdirSync(skillsDir).filter((name) => existsSync(join(skillsDir, name, "SKILL.md")))
  : [];

// Route as a router would: here, load a skill when the prompt names it.
const chosen = skills.find((name) => prompt.toLowerCase().includes(name.replace(/-/g, " ")));
const toolCalls = [];
if (chosen) {
  const body = readFileSync(join(skillsDir, chosen, "SKILL.md"), "utf8");
  toolCalls.push({ name: "Skill", input: { skill: chosen }, output: body, turn: 0 });
}

function answer() {
  return chosen ? `Following the ${chosen} skill.` : "No skill applies; answering on my own.";
}

// One JSON object on stdout (command-reply.schema.json); diagnostics go to stderr.
process.stdout.write(
  `${JSON.stringify({
    output: answer(),
    skillsActivated: chosen ? [chosen] : [],
    toolCalls,
    usage: { inputTokens: prompt.length, outputTokens: 0, costUsd: 0 },
  })}\n`,
);
const env = (name) => process.env[name] ?? "?";
console.error(`case ${env("SKILLGATE_CASE")} trial ${env("SKILLGATE_TRIAL")} (${env("SKILLGATE_MODE")})`);
