// A buy: spend USDC on one outcome's tokens, with an optional price limit, from the caller's wallet
// or, for an agent, its vault.
import { toUsdcUnits, usdcNumber } from "../../constants";
import { type AgentTradeFields, recordDecision, vaultBuyCalls } from "../agents/vaultTrade";
import { buyCalls, quoteBuy } from "../chain/market";
import { usdcBalance } from "../chain/usdc";
import { badRequest } from "../http/errors";
import { sponsoredWrite } from "../writes/sponsoredWrite";
import { averagePrice, minTokensOut } from "./bounds";
import { outcomeIndex, requireActive } from "./marketChecks";
import { loadTrader, type TradeContext } from "./trader";

export type BuyParameters = {
  marketSlug: string;
  outcome: string;
  amount: number;
  maxPrice?: number;
} & AgentTradeFields;

export async function buy(context: TradeContext, request: BuyParameters) {
  const trader = await loadTrader(context, request);
  const outcome = outcomeIndex(trader.market, request.outcome);
  requireActive(trader.market);
  const spend = toUsdcUnits(request.amount);
  const quote = await quoteBuy(trader.chain, trader.marketAddress, outcome, spend).catch((error) => {
    throw badRequest("amount", "the market cannot fill this amount", error);
  });
  const minimum = minTokensOut(spend, request.maxPrice);
  if (quote.tokensOut < minimum)
    throw badRequest(
      "maxPrice",
      `the average price would be ${averagePrice(spend, quote.tokensOut).toFixed(6)}, above maxPrice`,
    );
  const { account } = trader;
  if ((await usdcBalance(trader.chain, account.address)).units < spend)
    throw badRequest("amount", `not enough USDC in the ${account.kind}`);
  const calls =
    account.kind === "vault"
      ? await vaultBuyCalls(trader, outcome, spend, minimum)
      : await buyCalls(trader.chain, {
          owner: trader.wallet,
          market: trader.marketAddress,
          outcome,
          usdcUnits: spend,
          minTokensOut: minimum,
        });
  return sponsoredWrite(context, {
    userId: context.user.id,
    kind: account.kind === "vault" ? "vault_buy" : "buy",
    request,
    calls,
    ownerKey: trader.ownerKey,
    beforeSend: recordDecision(context, trader, { ...request, action: "buy", outcome, amount: spend }),
    answer: ({ txId, txHash }) => ({
      txId,
      marketSlug: request.marketSlug,
      outcome: request.outcome,
      amount: request.amount,
      tokensReceived: usdcNumber(quote.tokensOut),
      avgPrice: averagePrice(spend, quote.tokensOut),
      account: account.kind,
      status: "pending" as const,
      txHash,
    }),
  });
}
