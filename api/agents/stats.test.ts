import { describe, expect, it } from "vitest";
import { type AgentActivity, agentStats, type HeldMarket, holdingOf, marketProfit } from "./stats";
import type { MarketState } from "./valuation";

const WAD = 10n ** 18n;
const USDC = 1_000_000n;
const active = (pYes: bigint): MarketState => ({
  status: "active",
  resolvedOutcome: null,
  pricesWad: [pYes, WAD - pYes],
});
const resolved = (winner: number): MarketState => ({
  status: "resolved",
  resolvedOutcome: winner,
  pricesWad: [WAD / 2n, WAD / 2n],
});
const line = (outcome: number, tokens: bigint, costBasis: bigint, realizedPnl = 0n) => ({
  outcome,
  tokens,
  costBasis,
  realizedPnl,
});
const noTrades = { count: 0, buys: 0, volume: 0n, bought: 0n };
const activity = (overrides: Partial<AgentActivity>): AgentActivity => ({
  trades: noTrades,
  markets: [],
  decisions: [],
  ...overrides,
});

describe("agent stats", () => {
  it("gathers tokens per outcome, summing rows of the same outcome", () => {
    const held: HeldMarket = { market: active(WAD / 2n), positions: [line(1, 5n, 1n), line(1, 2n, 1n)] };
    expect(holdingOf(held).tokens).toEqual([0n, 7n]);
  });

  it("counts trades and volume, and averages what a buy paid", () => {
    const stats = agentStats(activity({ trades: { count: 3, buys: 2, volume: 250n * USDC, bought: 150n * USDC } }));
    expect(stats).toMatchObject({ totalTrades: 3, volume: 250, avgPosition: 75 });
  });

  it("reports zeros and a null Brier score for an agent that never traded", () => {
    expect(agentStats(activity({}))).toEqual({
      totalTrades: 0,
      winRate: 0,
      pnl: 0,
      avgPosition: 0,
      volume: 0,
      brier: null,
    });
  });

  it("adds realized profit to open tokens marked at the market's price less their cost", () => {
    // 100 tokens bought for 40 at price 0.6: marked 60, so +20; plus 5 realized on an earlier sale.
    const held: HeldMarket = {
      market: active((6n * WAD) / 10n),
      positions: [line(0, 100n * USDC, 40n * USDC, 5n * USDC)],
    };
    expect(marketProfit(held)).toBe(25n * USDC);
    expect(agentStats(activity({ markets: [held] })).pnl).toBe(25);
  });

  it("counts losing tokens of a resolved market as a loss of their cost, and unclaimed winners at 1 USDC", () => {
    const held: HeldMarket = {
      market: resolved(0),
      positions: [line(0, 30n * USDC, 20n * USDC), line(1, 50n * USDC, 25n * USDC)],
    };
    expect(marketProfit(held)).toBe(30n * USDC - 20n * USDC - 25n * USDC);
  });

  it("takes the win rate over resolved markets only: a claimed win and an unclaimed loss make 1/2", () => {
    const claimedWin: HeldMarket = { market: resolved(1), positions: [line(1, 0n, 0n, 12n * USDC)] };
    const loss: HeldMarket = { market: resolved(0), positions: [line(1, 40n * USDC, 18n * USDC)] };
    const open: HeldMarket = { market: active(WAD / 2n), positions: [line(0, 10n * USDC, 1n * USDC)] };
    const stats = agentStats(activity({ markets: [claimedWin, loss, open] }));
    expect(stats.winRate).toBe(0.5);
    expect(stats.pnl).toBe(12 - 18 + 4);
  });

  it("counts a resolved market that broke even as no win", () => {
    const even: HeldMarket = { market: resolved(0), positions: [line(0, 0n, 0n, 0n)] };
    expect(agentStats(activity({ markets: [even] })).winRate).toBe(0);
  });

  it("scores confidences with the Brier rule: mean squared distance from what happened", () => {
    const stats = agentStats(
      activity({
        decisions: [
          { confidence: 0.8, won: true },
          { confidence: 0.3, won: false },
          { confidence: 1, won: false },
        ],
      }),
    );
    expect(stats.brier).toBeCloseTo((0.04 + 0.09 + 1) / 3, 12);
  });
});
