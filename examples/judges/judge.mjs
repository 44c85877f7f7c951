#!/usr/bin/env node
// A minimal judge for skillgate's `command` judge (docs/agent-protocol.md, "A judge of your own"), in Node with no
// dependencies. Configure it in .skillgate.yml as `judge: {adapter: command, command: node judges/judge.mjs}`.
// Replace `decide()` with a call to your own model: it gets the expectation and the trial, and says whether the
// expectation is met.
import { readFileSync } from "node:fs";

// stdin: the grader's instructions, then one block per part of the trial. Every block's tags end in the same code,
// drawn per message and named on the line before the blocks, so text inside a block cannot close it.
const message = readFileSync(0, "utf8");
const code = /end their tags in -([0-9a-f]+)/.exec(message)?.[1];

/** The text of one block (`expectation`, `output`, `files`, `tool_calls`), or "" when the message has none. */
function block(name) {
  if (!code) return "";
  const open = `<${name}-${code}>\n`;
  const start = message.indexOf(open);
  const end = message.indexOf(`\n</${name}-${code}>`, start);
  return start < 0 || end < 0 ? "" : message.slice(start + open.length, end);
}

// Here: an expectation that quotes words ("Fixed") is met when the agent's output or files hold each of them.
function decide(expectation, output, files) {
  const quoted = [...expectation.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  if (quoted.length === 0) return { passed: false, evidence: "the expectation quotes nothing this judge can check" };
  const missing = quoted.filter((word) => !output.includes(word) && !files.includes(word));
  return missing.length === 0
    ? { passed: true, evidence: `the answer holds ${quoted.map((w) => `"${w}"`).join(", ")}` }
    : { passed: false, evidence: `the answer lacks ${missing.map((w) => `"${w}"`).join(", ")}` };
}

// One JSON object on stdout: {"passed": true|false, "evidence": "…"}.
process.stdout.write(`${JSON.stringify(decide(block("expectation"), block("output"), block("files")))}\n`);
