// What a buy or a sell would get right now: the market contract's own quote (quoteBuy, quoteSell)
// at the chain's latest block, so that a client shows the figures the trade itself will be checked
// against before anything is signed or sent.
import { type Address, BaseError, ContractFunctionRevertedError } from "viem";
import { toUsdcUnits, usdcNumber } from "../../constants";
import type { ChainAccess } from "../chain/access";
import { quoteBuy, quoteSell } from "../chain/market";
import type { Queries } from "../http/env";
import { badRequest, chainUnavailable, marketNotFound } from "../http/errors";
import { averagePrice } from "./bounds";
import { outcomeIndex, requireActive } from "./marketChecks";

export type QuoteParameters = {
  marketSlug: string;
  outcome: string;
  side: "buy" | "sell";
  /** USDC to spend (buy, fee included) or outcome tokens to sell. */
  amount: number;
};

export type Quote = QuoteParameters & {
  /** Outcome tokens received (buy) or sold (sell). */
  tokens: number;
  /** USDC paid (buy, fee included) or received (sell, after the fee). */
  usdc: number;
  fee: number;
  avgPrice: number;
  /** The outcome's indexed price before the trade. */
  price: number;
};

export async function quote(
  context: { chain?: ChainAccess; db: Pick<Queries, "markets"> },
  request: QuoteParameters,
): Promise<Quote> {
  const { chain, db } = context;
  if (!chain) throw chainUnavailable("this API instance has no chain access to quote from");
  const market = await db.markets.bySlug(request.marketSlug);
  if (!market?.contract_address) throw marketNotFound();
  const outcome = outcomeIndex(market, request.outcome);
  requireActive(market);
  const address = market.contract_address as Address;
  const units = toUsdcUnits(request.amount);
  const read =
    request.side === "buy"
      ? quoteBuy(chain, address, outcome, units).then(({ tokensOut, fee }) => ({ tokens: tokensOut, usdc: units, fee }))
      : quoteSell(chain, address, outcome, units).then(({ usdcOut, fee }) => ({ tokens: units, usdc: usdcOut, fee }));
  const figures = await read.catch((error: unknown) => {
    // A revert is the market refusing this amount; anything else is the chain node not answering.
    const reverted =
      error instanceof BaseError && error.walk((cause) => cause instanceof ContractFunctionRevertedError);
    if (reverted) throw badRequest("amount", "the market cannot fill this amount", error);
    throw chainUnavailable("the chain node did not answer the quote", error);
  });
  return {
    ...request,
    tokens: usdcNumber(figures.tokens),
    usdc: usdcNumber(figures.usdc),
    fee: usdcNumber(figures.fee),
    avgPrice: figures.tokens === 0n ? 0 : averagePrice(figures.usdc, figures.tokens),
    price: market.prices?.[outcome] ?? 1 / market.outcomes.length,
  };
}
