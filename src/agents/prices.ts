/**
 * List prices of known models, USD per million tokens, for the `anthropic` and `openai` adapters: without them a
 * trial cost $0 unless `agent.options.pricing` was set, and the USD budget could never stop a run. A model not
 * listed has no price here: its cost is unknown (reported so, never $0), and `agent.options.pricing` gives one.
 *
 * Sources (prices change: the configured pricing always wins):
 * - Anthropic: the model table of Anthropic's own claude-api skill, "Current Models (cached: 2026-06-24)"
 *   (test/fixtures/corpus/anthropics-skills/claude-api/SKILL.md; Sonnet 5 at its list price, not the intro one).
 * - OpenAI: gpt-5 and gpt-5.1 at $1.25 in / $10 out, as two independent published price tables gave them (the
 *   openai-cost crate's table "as of 2026-Q2" and Expensify's cost estimator); other OpenAI models are not listed.
 */
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
}

const KNOWN_PRICES: Readonly<Record<string, ModelPrice>> = {
  "claude-fable-5": { inputPerMTok: 10, outputPerMTok: 50 },
  "claude-mythos-5": { inputPerMTok: 10, outputPerMTok: 50 },
  "claude-opus-4-8": { inputPerMTok: 5, outputPerMTok: 25 },
  "claude-opus-4-7": { inputPerMTok: 5, outputPerMTok: 25 },
  "claude-opus-4-6": { inputPerMTok: 5, outputPerMTok: 25 },
  "claude-sonnet-5": { inputPerMTok: 3, outputPerMTok: 15 },
  "claude-sonnet-4-6": { inputPerMTok: 3, outputPerMTok: 15 },
  "claude-haiku-4-5": { inputPerMTok: 1, outputPerMTok: 5 },
  "gpt-5": { inputPerMTok: 1.25, outputPerMTok: 10 },
  "gpt-5.1": { inputPerMTok: 1.25, outputPerMTok: 10 },
};

/** A model id without its snapshot date (`claude-haiku-4-5-20251001`, `gpt-5-2026-04-01`). */
function withoutDate(model: string): string {
  return model.replace(/-(?:\d{8}|\d{4}-\d{2}-\d{2})$/, "");
}

/** The list price of `model`, or undefined when it is not a known model. */
export function knownPrice(model: string | undefined): ModelPrice | undefined {
  if (!model) return undefined;
  return KNOWN_PRICES[model] ?? KNOWN_PRICES[withoutDate(model)];
}
