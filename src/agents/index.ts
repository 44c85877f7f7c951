/** Registers the built-in adapters. Import this module once before `createAgent`. */
import "./claude-code.js";
import "./command.js";

export { agentNames, createAgent, registerAgent } from "./registry.js";
