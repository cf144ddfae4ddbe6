import { describe, expect, it } from "vitest";
import { MomentumParams, momentum } from "./momentum";
import type { BuyDecision, Decision, Holding, MarketSnapshot, SellDecision, Snapshot } from "./strategy";

/** A decision of either kind, its fields read without narrowing. */
type Loose = Decision & Omit<BuyDecision, "action"> & Omit<SellDecision, "action">;

const HOUR = 3600_000;
const NOW = 5 * HOUR;
const market = (from: number, to: number): MarketSnapshot => ({
  slug: "m",
  title: "A market",
  outcomes: ["Yes", "No"],
  prices: [to, 1 - to],
  b: 1000,
  feeBps: 50,
  closesAt: NOW + 100 * HOUR,
  history: [
    { at: 0, prices: [from, 1 - from] },
    { at: NOW - 60_000, prices: [to, 1 - to] },
  ],
});
const snapshot = (m: MarketSnapshot, holdings: Holding[] = [], lastTradeAt = {}): Snapshot => ({
  now: NOW,
  markets: [m],
  portfolio: { cash: 500, netAssetValue: 500, holdings },
  lastTradeAt,
});
const strategy = momentum(MomentumParams.parse({}));

describe("momentum", () => {
  it("buys a rise above the threshold, more for a larger one, and says why from the figures", () => {
    const decision = strategy.decide(snapshot(market(0.41, 0.52)))[0] as Loose;
    expect(decision).toMatchObject({ action: "buy", outcome: 0, amount: 26.82, confidence: 0.63 });
    expect(decision.reasoning).toBe(
      "Yes rose from 0.41 to 0.52 in 1 h (+27%), above the 10% momentum threshold: buying 26.82 USDC, confidence 0.63",
    );
    const capped = strategy.decide(snapshot(market(0.3, 0.6)))[0] as Loose;
    expect(capped.amount).toBe(30);
  });

  it("ignores moves below the threshold, and a market it traded within the cooldown", () => {
    expect(strategy.decide(snapshot(market(0.5, 0.53)))).toEqual([]);
    expect(strategy.decide(snapshot(market(0.41, 0.52), [], { m: NOW - 60_000 }))).toEqual([]);
    expect(strategy.outlook(snapshot(market(0.5, 0.53))).m).toBe(
      "Yes rose from 0.50 to 0.53 in 1 h (+6.0%); threshold 10%: no signal",
    );
  });

  it("sells all of an outcome it holds when that outcome falls past the threshold", () => {
    const held = [{ marketSlug: "m", outcome: 0, tokens: 38.5, value: 17 }];
    const decision = strategy.decide(snapshot(market(0.52, 0.44), held))[0] as Loose;
    expect(decision).toMatchObject({ action: "sell", outcome: 0, tokens: 38.5, confidence: 0.64 });
    expect(decision.reasoning).toBe(
      "Yes fell from 0.52 to 0.44 in 1 h (-15%), beyond the 10% momentum threshold: selling all 38.5 Yes tokens, confidence 0.64",
    );
  });

  it("follows the other side's rise when the one it does not hold falls", () => {
    // No rose from 0.48 to 0.56 (+17%).
    const decision = strategy.decide(snapshot(market(0.52, 0.44)))[0] as Loose;
    expect(decision).toMatchObject({ action: "buy", outcome: 1 });
  });
});
