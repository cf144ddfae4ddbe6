import { describe, expect, it } from "vitest";
import { ContrarianParams, contrarian } from "./contrarian";
import type { BuyDecision, Decision, Holding, MarketSnapshot, SellDecision, Snapshot } from "./strategy";

/** A decision of either kind, its fields read without narrowing. */
type Loose = Decision & Omit<BuyDecision, "action"> & Omit<SellDecision, "action">;

const HOUR = 3600_000;
const NOW = 5 * HOUR;
const market = (from: number[], to: number[]): MarketSnapshot => ({
  slug: "m",
  title: "A market",
  outcomes: ["A", "B", "C"],
  prices: to,
  b: 1000,
  feeBps: 50,
  closesAt: NOW + 100 * HOUR,
  history: [
    { at: 0, prices: from },
    { at: NOW - 30 * 60_000, prices: to },
  ],
});
const snapshot = (m: MarketSnapshot, holdings: Holding[] = [], lastTradeAt = {}): Snapshot => ({
  now: NOW,
  markets: [m],
  portfolio: { cash: 500, netAssetValue: 500, holdings },
  lastTradeAt,
});
const strategy = contrarian(ContrarianParams.parse({}));

describe("contrarian", () => {
  it("fades the largest fall beyond the threshold by buying the outcome that fell", () => {
    const decision = strategy.decide(snapshot(market([0.4, 0.3, 0.3], [0.56, 0.22, 0.22])))[0] as Loose;
    // B and C fell 27%; the first of them is bought.
    expect(decision).toMatchObject({ action: "buy", outcome: 1, amount: 17.77, confidence: 0.26 });
    expect(decision.reasoning).toBe(
      "B fell from 0.30 to 0.22 in 1 h (-27%), beyond the 15% threshold for a large move: fading it by buying 17.77 USDC of B, confidence 0.26",
    );
  });

  it("leaves small moves and markets in their cooldown alone", () => {
    expect(strategy.decide(snapshot(market([0.4, 0.3, 0.3], [0.42, 0.29, 0.29])))).toEqual([]);
    const big = market([0.4, 0.3, 0.3], [0.56, 0.22, 0.22]);
    expect(strategy.decide(snapshot(big, [], { m: NOW - 1000 }))).toEqual([]);
    expect(strategy.outlook(snapshot(big)).m).toBe(
      "B fell from 0.30 to 0.22 in 1 h (-27%); threshold 15%: a large move to fade",
    );
  });

  it("takes profit on the rebound of an outcome it holds", () => {
    const held = [{ marketSlug: "m", outcome: 1, tokens: 40, value: 12 }];
    const decision = strategy.decide(snapshot(market([0.5, 0.22, 0.28], [0.4, 0.3, 0.3]), held))[0] as Loose;
    expect(decision).toMatchObject({ action: "sell", outcome: 1, tokens: 40, confidence: 0.74 });
    expect(decision.reasoning).toMatch(/^B rose from 0\.22 to 0\.30 in 1 h \(\+36%\): the rebound came/);
  });
});
