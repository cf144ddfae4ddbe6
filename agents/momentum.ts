// momentum: follows moves. When an outcome's price rose by at least `threshold` (relative) over the
// last `windowMs`, it buys that outcome, more for a larger move; when an outcome it holds fell by as
// much, it sells all of it. A market it traded within `cooldownMs` is left alone, so that one move is
// followed once. It expects a move to carry on: its estimate of an outcome's probability is the
// price now plus `carry` times the move, and that estimate is its confidence in a buy (one minus it,
// in a sale).
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

export const MomentumParams = z.strictObject({
  windowMs: z.number().positive().default(3600_000),
  /** Relative move that counts as momentum (0.10: 10%). */
  threshold: z.number().positive().default(0.1),
  /** Smallest absolute move that counts, so that a cheap outcome's tick is not a trend. */
  minMove: z.number().min(0).default(0.02),
  /** USDC bought for a move of exactly the threshold; proportionally more for larger moves. */
  usdcPerThreshold: z.number().positive().default(10),
  maxUsdc: z.number().positive().default(30),
  /** Share of the move expected to carry on, for the probability estimate. */
  carry: z.number().min(0).max(2).default(1),
  cooldownMs: z
    .number()
    .min(0)
    .default(30 * 60_000),
  slippage: z.number().min(0).max(0.5).default(0.03),
});
export type MomentumParams = z.infer<typeof MomentumParams>;

const estimate = (move: Move, carry: number) => Math.min(0.99, Math.max(0.01, move.to + carry * (move.to - move.from)));
const counts = (move: Move, params: MomentumParams) => Math.abs(move.to - move.from) >= params.minMove;

export function momentum(params: MomentumParams = MomentumParams.parse({})): RuleStrategy {
  const story = (market: MarketSnapshot, move: Move) =>
    `${market.outcomes[move.outcome]} ${move.change >= 0 ? "rose" : "fell"} from ${price(move.from)} to ${price(move.to)} in ${duration(move.spanMs)} (${percent(move.change)})`;

  function decideMarket(market: MarketSnapshot, snapshot: Snapshot): Decision | undefined {
    if (coolingDown(snapshot, market.slug, params.cooldownMs)) return undefined;
    const moves = movesOver(market.history, snapshot.now, params.windowMs).filter((move) => counts(move, params));
    const fee = market.feeBps / 10_000;

    for (const move of moves) {
      const held = holdingOf(snapshot.portfolio, market.slug, move.outcome);
      if (move.change > -params.threshold || !held || held.tokens <= 0) continue;
      const tokens = tokenUnitsDown(held.tokens);
      const sure = confidence(1 - estimate(move, params.carry));
      return {
        action: "sell",
        marketSlug: market.slug,
        outcome: move.outcome,
        tokens,
        minPrice: Math.max(0.001, move.to * (1 - fee) - params.slippage),
        confidence: sure,
        reasoning: `${story(market, move)}, beyond the ${percent(params.threshold).slice(1)} momentum threshold: selling all ${tokens} ${market.outcomes[move.outcome]} tokens, confidence ${sure}`,
      };
    }

    const best = moves.reduce<Move | undefined>((a, m) => (m.change > (a?.change ?? 0) ? m : a), undefined);
    if (!best || best.change < params.threshold) return undefined;
    const amount = centsDown(Math.min(params.maxUsdc, (params.usdcPerThreshold * best.change) / params.threshold));
    const sure = confidence(estimate(best, params.carry));
    return {
      action: "buy",
      marketSlug: market.slug,
      outcome: best.outcome,
      amount,
      maxPrice: Math.min(0.999, best.to / (1 - fee) + params.slippage),
      confidence: sure,
      reasoning: `${story(market, best)}, above the ${percent(params.threshold).slice(1)} momentum threshold: buying ${usdc(amount)}, confidence ${sure}`,
    };
  }

  return {
    name: "momentum",
    decide: (snapshot) => snapshot.markets.flatMap((market) => decideMarket(market, snapshot) ?? []),
    outlook: (snapshot) =>
      Object.fromEntries(
        snapshot.markets.map((market) => {
          const moves = movesOver(market.history, snapshot.now, params.windowMs);
          const biggest = moves.reduce<Move | undefined>(
            (a, m) => (Math.abs(m.change) > Math.abs(a?.change ?? 0) ? m : a),
            undefined,
          );
          if (!biggest) return [market.slug, `no move over the last ${duration(params.windowMs)}: no signal`];
          const signal =
            biggest.change >= params.threshold && counts(biggest, params) ? "a momentum signal" : "no signal";
          return [market.slug, `${story(market, biggest)}; threshold ${percent(params.threshold).slice(1)}: ${signal}`];
        }),
      ),
  };
}
