// A claim: redeem the winning tokens of a resolved market (every token at 1/n in a voided one).
import { usdcNumber } from "../../constants";
import { claimCalls, outcomeBalance } from "../chain/market";
import { ApiError } from "../http/errors";
import { sponsoredWrite } from "../writes/sponsoredWrite";
import { claimPayout } from "./bounds";
import { claimableOutcomes } from "./marketChecks";
import { loadTrader, type TradeContext } from "./trader";

export type ClaimParameters = { marketSlug: string };

export async function claim(context: TradeContext, request: ClaimParameters) {
  const trader = await loadTrader(context, request.marketSlug);
  const outcomes = claimableOutcomes(trader.market);
  const held = await Promise.all(
    outcomes.map((outcome) => outcomeBalance(trader.chain, trader.marketAddress, trader.wallet, outcome)),
  );
  const heldUnits = held.reduce((sum, value) => sum + value, 0n);
  if (heldUnits === 0n) throw new ApiError(404, "no_position", "no position to claim in this market");
  const payout = claimPayout({
    voided: trader.market.status === "voided",
    heldUnits,
    outcomeCount: trader.market.outcomes.length,
  });
  return sponsoredWrite(context, {
    userId: context.user.id,
    kind: "claim",
    request,
    calls: claimCalls(trader.marketAddress),
    ownerKey: trader.ownerKey,
    answer: ({ txId, txHash }) => ({
      txId,
      marketSlug: request.marketSlug,
      usdcClaimed: usdcNumber(payout),
      status: "pending" as const,
      txHash,
    }),
  });
}
