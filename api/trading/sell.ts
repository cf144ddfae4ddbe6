// A sale: sell one outcome's tokens back to the market for USDC, with an optional price limit.
import { toUsdcUnits, usdcNumber } from "../../constants";
import { outcomeBalance, quoteSell, sellCalls } from "../chain/market";
import { badRequest } from "../http/errors";
import { sponsoredWrite } from "../writes/sponsoredWrite";
import { averagePrice, minUsdcOut } from "./bounds";
import { outcomeIndex, requireActive } from "./marketChecks";
import { loadTrader, type TradeContext } from "./trader";

export type SellParameters = { marketSlug: string; outcome: string; tokenAmount: number; minPrice?: number };

export async function sell(context: TradeContext, request: SellParameters) {
  const trader = await loadTrader(context, request.marketSlug);
  const outcome = outcomeIndex(trader.market, request.outcome);
  requireActive(trader.market);
  const tokens = toUsdcUnits(request.tokenAmount);
  if ((await outcomeBalance(trader.chain, trader.marketAddress, trader.wallet, outcome)) < tokens)
    throw badRequest("tokenAmount", "not enough outcome tokens in the wallet");
  const quote = await quoteSell(trader.chain, trader.marketAddress, outcome, tokens);
  const minimum = minUsdcOut(tokens, request.minPrice);
  if (quote.usdcOut < minimum)
    throw badRequest(
      "minPrice",
      `the average price would be ${averagePrice(quote.usdcOut, tokens).toFixed(6)}, below minPrice`,
    );
  return sponsoredWrite(context, {
    userId: context.user.id,
    kind: "sell",
    request,
    calls: sellCalls(trader.marketAddress, outcome, tokens, minimum),
    ownerKey: trader.ownerKey,
    answer: ({ txId, txHash }) => ({
      txId,
      marketSlug: request.marketSlug,
      outcome: request.outcome,
      tokensSold: request.tokenAmount,
      usdcReceived: usdcNumber(quote.usdcOut),
      avgPrice: averagePrice(quote.usdcOut, tokens),
      status: "pending" as const,
      txHash,
    }),
  });
}
