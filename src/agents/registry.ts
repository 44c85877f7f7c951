/** Adapter registry: a new adapter is one file that calls `registerAgent`; built-ins register via `./index.js`. */
import { type AgentAdapter, type AgentConfig, InputError } from "../model/index.js";

export interface AgentContext {
  /** Absolute path of the repository; relative commands and recording folders resolve against it. */
  repoDir: string;
}

export type AgentFactory = (config: AgentConfig, ctx: AgentContext) => AgentAdapter;

const factories = new Map<string, AgentFactory>();

export function registerAgent(name: string, factory: AgentFactory): void {
  factories.set(name, factory);
}

export function agentNames(): string[] {
  return [...factories.keys()].sort();
}

export function createAgent(config: AgentConfig, ctx: AgentContext): AgentAdapter {
  const factory = factories.get(config.adapter);
  if (!factory) {
    throw new InputError(
      `unknown agent adapter "${config.adapter}"; registered adapters: ${agentNames().join(", ") || "(none)"}`,
    );
  }
  return factory(config, ctx);
}
