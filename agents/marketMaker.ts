// market-maker: keeps each outcome's price near its fair-value estimate. The estimate is a slow,
// time-weighted average of the prices it has observed (half-life `halfLifeMs`), so that a burst of
// trades moves the price much more than the estimate. When an outcome drifts more than `band` from
// the estimate, it trades back toward it, closing `closeFraction` of the gap: it sells the
// over-priced outcome if it holds some, otherwise buys the most under-priced one. It keeps a small
// inventory of every outcome (`inventoryUsdc`), so that it has something to sell into a rise, and
// never holds more than `maxInventoryUsdc` of one outcome. Its confidence in a buy is its estimate of
// the outcome's probability; in a sale, of the outcome losing.
import { z } from "zod";
import { averagePrices } from "./history";
import { buyCostToMove, priceAfterBuy, sellTokensToMove } from "./lmsr";
import { type Decision, holdingOf, type MarketSnapshot, type RuleStrategy, type Snapshot } from "./strategy";
import { centsDown, confidence, price, tokenUnitsDown, usdc } from "./words";

export const MarketMakerParams = z.strictObject({
  /** Half-life of the fair-value average. */
  halfLifeMs: z
    .number()
    .positive()
    .default(6 * 3600_000),
  /** Distance from the fair value tolerated before trading. */
  band: z.number().positive().max(0.5).default(0.02),
  /** Share of the gap to the fair value one trade closes. */
  closeFraction: z.number().positive().max(1).default(0.7),
  /** Largest trade, in USDC. */
  maxUsdc: z.number().positive().default(40),
  /** Smallest trade worth sending, in USDC. */
  minUsdc: z.number().positive().default(1),
  /** Inventory kept of every outcome, in USDC. */
  inventoryUsdc: z.number().min(0).default(5),
  /** Most held of one outcome, in USDC at the current price. */
  maxInventoryUsdc: z.number().positive().default(200),
  /** Price tolerance of each order beyond the price the move aims at. */
  slippage: z.number().min(0).max(0.5).default(0.03),
});
export type MarketMakerParams = z.infer<typeof MarketMakerParams>;

export function marketMaker(params: MarketMakerParams = MarketMakerParams.parse({})): RuleStrategy {
  const fairOf = (market: MarketSnapshot, now: number) => {
    const average = averagePrices(market.history, now, params.halfLifeMs);
    const sum = average.reduce((a, b) => a + b, 0);
    return average.length === market.prices.length && sum > 0 ? average.map((p) => p / sum) : market.prices;
  };
  const gapLine = (market: MarketSnapshot, outcome: number, fair: number[]) =>
    `${market.outcomes[outcome]} at ${price(market.prices[outcome]!)} is ${price(Math.abs(market.prices[outcome]! - fair[outcome]!))} ${market.prices[outcome]! > fair[outcome]! ? "above" : "below"} my fair value ${price(fair[outcome]!)} (band ±${price(params.band)})`;

  function decideMarket(market: MarketSnapshot, snapshot: Snapshot): Decision | undefined {
    const fair = fairOf(market, snapshot.now);
    const gaps = market.prices.map((p, i) => p - fair[i]!);
    const over = gaps.indexOf(Math.max(...gaps));
    const under = gaps.indexOf(Math.min(...gaps));
    const fee = market.feeBps / 10_000;

    const held = holdingOf(snapshot.portfolio, market.slug, over);
    if (gaps[over]! > params.band && held && held.tokens > 0) {
      const p = market.prices[over]!;
      const target = p - params.closeFraction * gaps[over]!;
      const tokens = tokenUnitsDown(Math.min(held.tokens, sellTokensToMove(market, p, target), params.maxUsdc / p));
      if (tokens * p >= params.minUsdc)
        return {
          action: "sell",
          marketSlug: market.slug,
          outcome: over,
          tokens,
          minPrice: Math.max(0.001, target * (1 - fee) - params.slippage),
          confidence: confidence(1 - fair[over]!),
          reasoning: `${gapLine(market, over, fair)}: selling ${tokens} of my ${tokenUnitsDown(held.tokens)} ${market.outcomes[over]} tokens to bring it toward ${price(target)}, confidence ${confidence(1 - fair[over]!)}`,
        };
    }

    const roomOf = (outcome: number) =>
      params.maxInventoryUsdc - (holdingOf(snapshot.portfolio, market.slug, outcome)?.value ?? 0);
    if (gaps[under]! < -params.band) {
      const p = market.prices[under]!;
      const target = p - params.closeFraction * gaps[under]!;
      const amount = centsDown(Math.min(buyCostToMove(market, p, target), params.maxUsdc, roomOf(under)));
      if (amount >= params.minUsdc)
        return {
          action: "buy",
          marketSlug: market.slug,
          outcome: under,
          amount,
          maxPrice: Math.min(0.999, target / (1 - fee) + params.slippage),
          confidence: confidence(fair[under]!),
          reasoning: `${gapLine(market, under, fair)}: buying ${usdc(amount)} to lift it toward ${price(target)}, confidence ${confidence(fair[under]!)}`,
        };
      return undefined;
    }

    // In band: top up the inventory of an outcome it holds (almost) none of, if that outcome is not
    // above its fair value and the buy leaves it within half the band (a buy that pushed it out of
    // band would be sold again at once).
    const bare = market.prices.findIndex(
      (p, outcome) =>
        (holdingOf(snapshot.portfolio, market.slug, outcome)?.value ?? 0) < params.inventoryUsdc / 2 &&
        p <= fair[outcome]! &&
        priceAfterBuy(market, p, params.inventoryUsdc) <= fair[outcome]! + params.band / 2,
    );
    if (bare < 0 || params.inventoryUsdc < params.minUsdc || roomOf(bare) < params.inventoryUsdc) return undefined;
    const p = market.prices[bare]!;
    return {
      action: "buy",
      marketSlug: market.slug,
      outcome: bare,
      amount: centsDown(params.inventoryUsdc),
      maxPrice: Math.min(0.999, p / (1 - fee) + params.slippage),
      confidence: confidence(fair[bare]!),
      reasoning: `${market.outcomes[bare]} at ${price(p)} is within ±${price(params.band)} of my fair value ${price(fair[bare]!)} and I hold almost none: buying ${usdc(params.inventoryUsdc)} of inventory so that I can sell into a rise, confidence ${confidence(fair[bare]!)}`,
    };
  }

  return {
    name: "market-maker",
    decide: (snapshot) => snapshot.markets.flatMap((market) => decideMarket(market, snapshot) ?? []),
    outlook: (snapshot) =>
      Object.fromEntries(
        snapshot.markets.map((market) => {
          const fair = fairOf(market, snapshot.now);
          const lines = market.outcomes.map(
            (name, i) => `${name} ${price(market.prices[i]!)} (fair ${price(fair[i]!)})`,
          );
          const worst = Math.max(...market.prices.map((p, i) => Math.abs(p - fair[i]!)));
          const verdict = worst > params.band ? "out of band: trading back toward fair value" : "within band";
          return [market.slug, `${lines.join(", ")}; band ±${price(params.band)}, ${verdict}`];
        }),
      ),
  };
}
