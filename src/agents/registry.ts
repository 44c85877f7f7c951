/** Adapter registry: a new adapter is one file that calls `registerAgent`; built-ins register via `./index.js`. */
import { type AgentAdapter, type AgentConfig, InputError } from "../model/index.js";

export interface AgentContext {
  /** Absolute path of the repository; relative commands and recording folders resolve against it. */
  repoDir: string;
}

export type AgentFactory = (config: AgentConfig, ctx: AgentContext) => AgentAdapter;

const factories = new Map<string, AgentFactory>();

/**
 * Adapters that route but never answer (`lexical`, a BM25 proxy): their canned line is no answer a discriminator
 * could grade, and their trigger figures are a proxy's, not an agent's.
 */
const ROUTER_ONLY_AGENTS: ReadonlySet<string> = new Set(["lexical"]);

export function isRouterOnlyAgent(adapter: string): boolean {
  return ROUTER_ONLY_AGENTS.has(adapter);
}

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
