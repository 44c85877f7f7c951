/** Registers the built-in adapters. Import this module once before `createAgent`. */
import "./command.js";

export { agentNames, createAgent, registerAgent } from "./registry.js";
