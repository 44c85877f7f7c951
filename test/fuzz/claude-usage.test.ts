import { describe, expect, it } from "vitest";
import { parseClaudeStream } from "../../src/agents/claude-code.js";

/** A bug the fuzzer found, pinned. */
describe("fuzz findings in the Claude stream parser", () => {
  it("Claude stream usage of the wrong type counts 0 instead of concatenating strings", () => {
    const stream = [
      JSON.stringify({
        type: "result",
        subtype: "success",
        result: "ok",
        usage: { input_tokens: "10", cache_read_input_tokens: { n: 1 }, output_tokens: [5] },
        total_cost_usd: "0.5",
      }),
    ].join("\n");
    const { result } = parseClaudeStream(stream);
    expect(result.usage).toEqual({ inputTokens: 0, outputTokens: 0, costUsd: 0 });
    const good = parseClaudeStream(
      JSON.stringify({
        type: "result",
        subtype: "success",
        result: "ok",
        usage: { input_tokens: 10, cache_read_input_tokens: 3, output_tokens: 5 },
        total_cost_usd: 0.5,
      }),
    );
    expect(good.result.usage).toEqual({ inputTokens: 13, outputTokens: 5, costUsd: 0.5 });
  });
});
