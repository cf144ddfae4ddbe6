// An agent's track record from its vault's indexed trades, positions and the confidences it sent.
// Every figure is USDC (a decimal number) or a plain count or ratio:
// - totalTrades: the vault's buys and sells; volume: USDC paid for buys plus USDC received for sells;
//   avgPosition: mean USDC paid per buy (0 without buys).
// - pnl: what the vault's trading made, realized plus marked: per market, the profit realized by
//   sales and claims, plus what the tokens still held are worth (valued as netAssetValue values
//   them) less what they cost. While no tokens were paid out in kind at an unbond, this equals the
//   vault's net asset value plus what stakers were paid and charged in fees, less what they bonded.
// - winRate: of the resolved markets the vault traded, the share where that profit is above 0
//   (0 when it traded in none).
// - brier: mean of (confidence − won)² over the vault's confirmed buys in resolved markets that
//   carried a confidence, `won` being 1 when the outcome bought won; null when there is none.
import { usdcNumber } from "../../constants";
import { type Holding, holdingValue, type MarketState } from "./valuation";

/** One outcome's position row, as the indexer keeps it. */
export type PositionLine = { outcome: number; tokens: bigint; costBasis: bigint; realizedPnl: bigint };

/** Every position row a holder has in one market. */
export type HeldMarket = { market: MarketState; positions: PositionLine[] };

export type AgentActivity = {
  trades: { count: number; buys: number; volume: bigint; bought: bigint };
  markets: HeldMarket[];
  decisions: { confidence: number; won: boolean }[];
};

export type AgentStats = {
  totalTrades: number;
  winRate: number;
  pnl: number;
  avgPosition: number;
  volume: number;
  brier: number | null;
};

/** The tokens held per outcome, for valuation. */
export function holdingOf({ market, positions }: HeldMarket): Holding {
  const tokens = market.pricesWad.map(() => 0n);
  for (const line of positions) tokens[line.outcome] = (tokens[line.outcome] ?? 0n) + line.tokens;
  return { market, tokens };
}

/** Realized profit plus the marked value of the tokens still held, less their cost, in units. */
export function marketProfit(held: HeldMarket): bigint {
  const realized = held.positions.reduce((sum, line) => sum + line.realizedPnl, 0n);
  const cost = held.positions.reduce((sum, line) => sum + line.costBasis, 0n);
  return realized + holdingValue(holdingOf(held)) - cost;
}

export function agentStats({ trades, markets, decisions }: AgentActivity): AgentStats {
  const resolved = markets.filter((held) => held.market.status === "resolved");
  const wins = resolved.filter((held) => marketProfit(held) > 0n).length;
  const pnl = markets.reduce((sum, held) => sum + marketProfit(held), 0n);
  return {
    totalTrades: trades.count,
    winRate: resolved.length === 0 ? 0 : wins / resolved.length,
    pnl: usdcNumber(pnl),
    avgPosition: trades.buys === 0 ? 0 : usdcNumber(trades.bought) / trades.buys,
    volume: usdcNumber(trades.volume),
    brier:
      decisions.length === 0
        ? null
        : decisions.reduce((sum, { confidence, won }) => sum + (confidence - (won ? 1 : 0)) ** 2, 0) / decisions.length,
  };
}
