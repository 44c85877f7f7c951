/** Registers the built-in adapters. Import this module once before `createAgent`. */
import "./anthropic.js";
import "./claude-code.js";
import "./codex.js";
import "./command.js";
import "./lexical.js";
import "./openai.js";
import "./replay.js";

export { agentNames, createAgent, registerAgent } from "./registry.js";
