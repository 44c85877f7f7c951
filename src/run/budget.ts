/** Run budgets: max USD, tokens and agent calls. Once one is reached no new trial starts. */
import type { Budget, Usage } from "../model/index.js";

export class BudgetTracker {
  usd = 0;
  inputTokens = 0;
  outputTokens = 0;
  agentCalls = 0;
  /** Calls whose price is unknown: the USD budget does not bound them (`unpriced`). */
  unpricedCalls = 0;
  /** Calls started and not yet ended: they count against the call budget already (a cap, not a target). */
  private inFlight = 0;

  constructor(private readonly budget: Budget) {}

  addCall(): void {
    this.agentCalls++;
  }

  /** A call starts: until `end()`, it counts against `maxAgentCalls` (calls at once cannot overshoot it). */
  begin(): void {
    this.inFlight++;
  }

  end(): void {
    this.inFlight--;
  }

  addUsage(u: Usage): void {
    this.usd += u.costUsd;
    if (u.costUnknown) this.unpricedCalls++;
    this.inputTokens += u.inputTokens;
    this.outputTokens += u.outputTokens;
  }

  /** Why no further trial may start, or undefined while within budget. */
  exhausted(): string | undefined {
    const b = this.budget;
    if (b.maxUsd !== undefined && this.usd >= b.maxUsd) {
      return `budget reached: spent $${this.usd.toFixed(4)} of max $${b.maxUsd}`;
    }
    const tokens = this.inputTokens + this.outputTokens;
    if (b.maxTokens !== undefined && tokens >= b.maxTokens) {
      return `budget reached: used ${tokens} tokens of max ${b.maxTokens}`;
    }
    if (b.maxAgentCalls !== undefined && this.agentCalls + this.inFlight >= b.maxAgentCalls) {
      const running = this.inFlight > 0 ? ` (${this.inFlight} more running)` : "";
      return `budget reached: made ${this.agentCalls} agent calls${running} of max ${b.maxAgentCalls}`;
    }
    return undefined;
  }

  /** What the USD budget cannot see, or undefined: calls of unknown price under a USD cap. */
  unpriced(): string | undefined {
    if (this.budget.maxUsd === undefined || this.unpricedCalls === 0) return undefined;
    return `${this.unpricedCalls} call(s) of unknown price (the model is not in skillgate's price list): the USD budget ($${this.budget.maxUsd}) does not bound them; set agent.options.pricing ({inputPerMTok, outputPerMTok}) to count them`;
  }
}
