// What a market must be for a trade or a claim, checked before anything is read from the chain.
import type { MarketRow } from "../db/markets";
import { ApiError, badRequest } from "../http/errors";

/** The index of a named outcome; a 400 naming `outcome` when the market has no such outcome. */
export function outcomeIndex(market: Pick<MarketRow, "outcomes">, outcome: string): number {
  const index = market.outcomes.indexOf(outcome);
  if (index < 0) throw badRequest("outcome", `not an outcome of this market (${market.outcomes.join(", ")})`);
  return index;
}

/** Trades need an active market: a 409 otherwise. */
export function requireActive(market: Pick<MarketRow, "status">) {
  if (market.status !== "active") throw new ApiError(409, "market_not_active", `the market is ${market.status}`);
}

/**
 * The outcomes whose tokens a claim redeems: the winner of a resolved market, every outcome of a
 * voided one; a 400 for a market not settled yet.
 */
export function claimableOutcomes(market: Pick<MarketRow, "status" | "outcomes" | "resolved_outcome">): number[] {
  if (market.status === "resolved" && market.resolved_outcome !== null) return [market.resolved_outcome];
  if (market.status === "voided") return market.outcomes.map((_, index) => index);
  throw new ApiError(400, "market_not_resolved", `the market is ${market.status}, not resolved`);
}
