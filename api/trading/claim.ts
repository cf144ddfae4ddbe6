// A claim: redeem the winning tokens of a resolved market (every token at 1/n in a voided one), held
// by the caller's wallet or, for an agent, its vault.
import type { Hex } from "viem";
import { usdcNumber } from "../../constants";
import { type AgentTradeFields, recordDecision } from "../agents/vaultTrade";
import { vaultClaimCall } from "../chain/agentVault";
import { claimCalls, outcomeBalance } from "../chain/market";
import { ApiError } from "../http/errors";
import { sponsoredWrite } from "../writes/sponsoredWrite";
import { claimPayout } from "./bounds";
import { claimableOutcomes } from "./marketChecks";
import { loadTrader, type TradeContext } from "./trader";

export type ClaimParameters = { marketSlug: string } & AgentTradeFields;

export async function claim(context: TradeContext, request: ClaimParameters) {
  const trader = await loadTrader(context, request);
  const outcomes = claimableOutcomes(trader.market);
  const { account } = trader;
  const held = await Promise.all(
    outcomes.map((outcome) => outcomeBalance(trader.chain, trader.marketAddress, account.address, outcome)),
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
    kind: account.kind === "vault" ? "vault_claim" : "claim",
    request,
    calls:
      account.kind === "vault"
        ? [vaultClaimCall(account.address, trader.market.id as Hex)]
        : claimCalls(trader.marketAddress),
    ownerKey: trader.ownerKey,
    beforeSend: recordDecision(context, trader, { ...request, action: "claim", outcome: null, amount: null }),
    answer: ({ txId, txHash }) => ({
      txId,
      marketSlug: request.marketSlug,
      usdcClaimed: usdcNumber(payout),
      account: account.kind,
      status: "pending" as const,
      txHash,
    }),
  });
}
