// contrarian: fades large moves. When an outcome's price fell by at least `threshold` (relative)
// over the last `windowMs`, it buys that outcome, more for a larger fall; once an outcome it holds
// has rebounded by as much, it sells all of it. A market it traded within `cooldownMs` is left alone.
// It expects part of a move to revert: its estimate of an outcome's probability is the price now
// plus `reversion` times the way back, and that estimate is its confidence in a buy (one minus it,
// in a sale). In a two-outcome market a large rise of one side is a large fall of the other, so
// fading the rise means buying the side that fell.
import { z } from "zod";
import { type Move, movesOver } from "./history";
import {
  coolingDown,
  type Decision,
  holdingOf,
  type MarketSnapshot,
  type RuleStrategy,
  type Snapshot,
} from "./strategy";
import { centsDown, confidence, duration, percent, price, tokenUnitsDown, usdc } from "./words";

export const ContrarianParams = z.strictObject({
  windowMs: z.number().positive().default(3600_000),
  /** Relative fall that counts as large (0.15: 15%). */
  threshold: z.number().positive().default(0.15),
  /** Smallest absolute move that counts. */
  minMove: z.number().min(0).default(0.03),
  /** USDC bought for a fall of exactly the threshold; proportionally more for larger falls. */
  usdcPerThreshold: z.number().positive().default(10),
  maxUsdc: z.number().positive().default(25),
  /** Share of the move expected to revert, for the probability estimate. */
  reversion: z.number().min(0).max(1).default(0.5),
  cooldownMs: z
    .number()
    .min(0)
    .default(30 * 60_000),
  slippage: z.number().min(0).max(0.5).default(0.03),
});
export type ContrarianParams = z.infer<typeof ContrarianParams>;

const estimate = (move: Move, reversion: number) =>
  Math.min(0.99, Math.max(0.01, move.to + reversion * (move.from - move.to)));

export function contrarian(params: ContrarianParams = ContrarianParams.parse({})): RuleStrategy {
  const story = (market: MarketSnapshot, move: Move) =>
    `${market.outcomes[move.outcome]} ${move.change >= 0 ? "rose" : "fell"} from ${price(move.from)} to ${price(move.to)} in ${duration(move.spanMs)} (${percent(move.change)})`;
  const large = (move: Move) => Math.abs(move.to - move.from) >= params.minMove;

  function decideMarket(market: MarketSnapshot, snapshot: Snapshot): Decision | undefined {
    if (coolingDown(snapshot, market.slug, params.cooldownMs)) return undefined;
    const moves = movesOver(market.history, snapshot.now, params.windowMs).filter(large);
    const fee = market.feeBps / 10_000;

    for (const move of moves) {
      const held = holdingOf(snapshot.portfolio, market.slug, move.outcome);
      if (move.change < params.threshold || !held || held.tokens <= 0) continue;
      const tokens = tokenUnitsDown(held.tokens);
      const sure = confidence(1 - estimate(move, params.reversion));
      return {
        action: "sell",
        marketSlug: market.slug,
        outcome: move.outcome,
        tokens,
        minPrice: Math.max(0.001, move.to * (1 - fee) - params.slippage),
        confidence: sure,
        reasoning: `${story(market, move)}: the rebound came, taking profit by selling all ${tokens} ${market.outcomes[move.outcome]} tokens, confidence ${sure}`,
      };
    }

    const worst = moves.reduce<Move | undefined>((a, m) => (m.change < (a?.change ?? 0) ? m : a), undefined);
    if (!worst || worst.change > -params.threshold) return undefined;
    const amount = centsDown(Math.min(params.maxUsdc, (params.usdcPerThreshold * -worst.change) / params.threshold));
    const sure = confidence(estimate(worst, params.reversion));
    return {
      action: "buy",
      marketSlug: market.slug,
      outcome: worst.outcome,
      amount,
      maxPrice: Math.min(0.999, worst.to / (1 - fee) + params.slippage),
      confidence: sure,
      reasoning: `${story(market, worst)}, beyond the ${percent(params.threshold).slice(1)} threshold for a large move: fading it by buying ${usdc(amount)} of ${market.outcomes[worst.outcome]}, confidence ${sure}`,
    };
  }

  return {
    name: "contrarian",
    decide: (snapshot) => snapshot.markets.flatMap((market) => decideMarket(market, snapshot) ?? []),
    outlook: (snapshot) =>
      Object.fromEntries(
        snapshot.markets.map((market) => {
          const moves = movesOver(market.history, snapshot.now, params.windowMs);
          const worst = moves.reduce<Move | undefined>((a, m) => (m.change < (a?.change ?? 0) ? m : a), undefined);
          if (!worst) return [market.slug, `no fall over the last ${duration(params.windowMs)}: nothing to fade`];
          const signal = worst.change <= -params.threshold && large(worst) ? "a large move to fade" : "nothing to fade";
          return [market.slug, `${story(market, worst)}; threshold ${percent(params.threshold).slice(1)}: ${signal}`];
        }),
      ),
  };
}
