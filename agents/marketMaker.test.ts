import { describe, expect, it } from "vitest";
import { priceAfterBuy } from "./lmsr";
import { MarketMakerParams, marketMaker } from "./marketMaker";
import type { BuyDecision, Decision, Holding, MarketSnapshot, SellDecision, Snapshot } from "./strategy";

/** A decision of either kind, its fields read without narrowing. */
type Loose = Decision & Omit<BuyDecision, "action"> & Omit<SellDecision, "action">;

const HOUR = 3600_000;
const NOW = 10 * HOUR;

/** A binary market that sat at 0.50 for hours and now trades at `yes`. */
const market = (yes: number, slug = "m"): MarketSnapshot => ({
  slug,
  title: "A market",
  outcomes: ["Yes", "No"],
  prices: [yes, 1 - yes],
  b: 1000,
  feeBps: 50,
  closesAt: NOW + 100 * HOUR,
  history: [
    { at: 0, prices: [0.5, 0.5] },
    { at: NOW - 1000, prices: [yes, 1 - yes] },
  ],
});
const stocked: Holding[] = [
  { marketSlug: "m", outcome: 0, tokens: 10, value: 5 },
  { marketSlug: "m", outcome: 1, tokens: 10, value: 5 },
];
const snapshot = (markets: MarketSnapshot[], holdings: Holding[] = stocked): Snapshot => ({
  now: NOW,
  markets,
  portfolio: { cash: 1000, netAssetValue: 1010, holdings },
  lastTradeAt: {},
});
const maker = marketMaker(MarketMakerParams.parse({}));

describe("market-maker", () => {
  it("does nothing in band with its inventory in place", () => {
    expect(maker.decide(snapshot([market(0.51)]))).toEqual([]);
  });

  it("buys an outcome that fell below its fair value, closing most of the gap, and says why", () => {
    // It holds no No tokens to sell, so it buys Yes.
    const deep = { ...market(0.44), b: 300 };
    const decision = maker.decide(snapshot([deep], [stocked[0]!]))[0] as Loose;
    expect(decision).toMatchObject({ action: "buy", marketSlug: "m", outcome: 0 });
    // 70% of the 0.06 gap: the price after the buy is 0.482.
    expect(priceAfterBuy(deep, 0.44, decision.amount)).toBeCloseTo(0.482, 3);
    expect(decision.reasoning).toBe(
      `Yes at 0.44 is 0.06 below my fair value 0.50 (band ±0.02): buying ${decision.amount.toFixed(2)} USDC to lift it toward 0.48, confidence 0.5`,
    );
    expect(decision.confidence).toBe(0.5);
    expect(decision.maxPrice).toBeGreaterThan(0.482);
  });

  it("sells what it holds of an outcome above its fair value instead of buying the other", () => {
    const decision = maker.decide(snapshot([market(0.56)]))[0] as Loose;
    expect(decision).toMatchObject({ action: "sell", outcome: 0, tokens: 10 });
    expect(decision.reasoning).toMatch(
      /^Yes at 0\.56 is 0\.06 above my fair value 0\.50 .*: selling 10 of my 10 Yes tokens/,
    );
  });

  it("buys the cheap side when it holds none of the dear one", () => {
    const decision = maker.decide(snapshot([market(0.56)], [stocked[1]!]))[0] as Loose;
    expect(decision).toMatchObject({ action: "buy", outcome: 1 });
  });

  it("keeps a small inventory of every outcome, one decision per market", () => {
    const decisions = maker.decide(snapshot([market(0.5), market(0.5, "other")], []));
    expect(decisions.map((d) => [d.marketSlug, d.action, d.outcome])).toEqual([
      ["m", "buy", 0],
      ["other", "buy", 0],
    ]);
    expect(decisions[0]).toMatchObject({ amount: 5 });
    expect(decisions[0]!.reasoning).toContain("buying 5.00 USDC of inventory");
  });

  it("bounds its trades and its inventory", () => {
    const big = maker.decide(snapshot([market(0.2)], [stocked[0]!]))[0] as Loose;
    expect(big.amount).toBe(40);
    const full = [{ marketSlug: "m", outcome: 0, tokens: 1000, value: 199.5 }];
    const capped = maker.decide(snapshot([market(0.2)], full))[0] as Loose;
    expect(capped).toBeUndefined();
  });

  it("buys inventory only of outcomes not above fair value, and not so much that it leaves the band", () => {
    // Yes at 0.49 gets inventory; No at 0.51 does not, and neither does anything in a thin market.
    const decisions = maker.decide(snapshot([market(0.49)], []));
    expect(decisions.map((d) => [d.action, d.outcome])).toEqual([["buy", 0]]);
    expect(maker.decide(snapshot([market(0.49)], [stocked[0]!]))).toEqual([]);
    expect(maker.decide(snapshot([{ ...market(0.5), b: 50 }], []))).toEqual([]);
  });

  it("follows a price that stays away for long: the fair value is a slow average", () => {
    const moved = { ...market(0.6), history: [{ at: 0, prices: [0.6, 0.4] }] };
    expect(maker.decide(snapshot([moved]))).toEqual([]);
    expect(maker.outlook(snapshot([moved])).m).toBe(
      "Yes 0.60 (fair 0.60), No 0.40 (fair 0.40); band ±0.02, within band",
    );
  });
});
