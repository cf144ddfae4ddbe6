// What an agent said about a trade it sent (api.agent_decision): written before the user operation is
// sent, keyed by its hash, so that the feed can show it beside the chain's record of the trade once
// the indexer has confirmed it. A decision whose operation never lands is never shown.
import type { Db } from "./pool";

export type AgentAction = "buy" | "sell" | "claim";

export type NewDecision = {
  userOpHash: string;
  userId: string;
  /** The agent's account (its manager address). */
  agent: string;
  marketSlug: string;
  action: AgentAction;
  /** null for a claim. */
  outcome: number | null;
  /** USDC units spent (buy) or token units sold (sell); null for a claim. */
  amount: bigint | null;
  reasoning: string;
  confidence: number | null;
  /** The outcome's indexed price when the agent decided; null for a claim. */
  priceAtDecision: number | null;
};

export function agentDecisionQueries(db: Db) {
  return {
    /** Records a decision about to be sent (again, when a retry sends the same operation); addresses lowercase, as indexed. */
    async record(decision: NewDecision): Promise<void> {
      await db.query(
        `INSERT INTO api.agent_decision
           (user_op_hash, user_id, agent, market_slug, action, outcome, amount, reasoning, confidence, price_at_decision)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (user_op_hash) DO NOTHING`,
        [
          decision.userOpHash.toLowerCase(),
          decision.userId,
          decision.agent.toLowerCase(),
          decision.marketSlug,
          decision.action,
          decision.outcome,
          decision.amount?.toString() ?? null,
          decision.reasoning,
          decision.confidence,
          decision.priceAtDecision,
        ],
      );
    },
  };
}
