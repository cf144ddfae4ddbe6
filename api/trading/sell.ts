// A sale: sell one outcome's tokens back to the market for USDC, with an optional price limit, from
// the caller's wallet or, for an agent, its vault.
import type { Hex } from "viem";
import { toUsdcUnits, usdcNumber } from "../../constants";
import { type AgentTradeFields, recordDecision } from "../agents/vaultTrade";
import { vaultSellCall } from "../chain/agentVault";
import { outcomeBalance, quoteSell, sellCalls } from "../chain/market";
import { badRequest } from "../http/errors";
import { sponsoredWrite } from "../writes/sponsoredWrite";
import { averagePrice, minUsdcOut } from "./bounds";
import { outcomeIndex, requireActive } from "./marketChecks";
import { loadTrader, type TradeContext } from "./trader";

export type SellParameters = {
  marketSlug: string;
  outcome: string;
  tokenAmount: number;
  minPrice?: number;
} & AgentTradeFields;

export async function sell(context: TradeContext, request: SellParameters) {
  const trader = await loadTrader(context, request);
  const outcome = outcomeIndex(trader.market, request.outcome);
  requireActive(trader.market);
  const { account } = trader;
  const tokens = toUsdcUnits(request.tokenAmount);
  if ((await outcomeBalance(trader.chain, trader.marketAddress, account.address, outcome)) < tokens)
    throw badRequest("tokenAmount", `not enough outcome tokens in the ${account.kind}`);
  const quote = await quoteSell(trader.chain, trader.marketAddress, outcome, tokens);
  const minimum = minUsdcOut(tokens, request.minPrice);
  if (quote.usdcOut < minimum)
    throw badRequest(
      "minPrice",
      `the average price would be ${averagePrice(quote.usdcOut, tokens).toFixed(6)}, below minPrice`,
    );
  return sponsoredWrite(context, {
    userId: context.user.id,
    kind: account.kind === "vault" ? "vault_sell" : "sell",
    request,
    calls:
      account.kind === "vault"
        ? [vaultSellCall(account.address, trader.market.id as Hex, outcome, tokens, minimum)]
        : sellCalls(trader.marketAddress, outcome, tokens, minimum),
    ownerKey: trader.ownerKey,
    beforeSend: recordDecision(context, trader, { ...request, action: "sell", outcome, amount: tokens }),
    answer: ({ txId, txHash }) => ({
      txId,
      marketSlug: request.marketSlug,
      outcome: request.outcome,
      tokensSold: request.tokenAmount,
      usdcReceived: usdcNumber(quote.usdcOut),
      avgPrice: averagePrice(quote.usdcOut, tokens),
      account: account.kind,
      status: "pending" as const,
      txHash,
    }),
  });
}
