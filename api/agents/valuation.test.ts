import { describe, expect, it } from "vitest";
import { bondValue, holdingValue, type MarketState, netAssetValue, outcomeValue } from "./valuation";

const WAD = 10n ** 18n;
const trading = (pricesWad: bigint[]): MarketState => ({ status: "active", resolvedOutcome: null, pricesWad });
const resolved = (winner: number, n = 2): MarketState => ({
  status: "resolved",
  resolvedOutcome: winner,
  pricesWad: Array(n).fill(WAD / BigInt(n)),
});
const voided = (n: number): MarketState => ({ status: "voided", resolvedOutcome: null, pricesWad: Array(n).fill(0n) });

describe("valuation as AgentVault computes it", () => {
  it("marks a trading market's tokens at its prices, rounding down per outcome", () => {
    // 0.333…: 7 tokens × 333333333333333333 / 1e18 = 2.333… → 2 units; 5 × 0.666… = 3.333… → 3.
    const market = trading([333_333_333_333_333_333n, 666_666_666_666_666_667n]);
    expect(outcomeValue(market, 0, 7n)).toBe(2n);
    expect(outcomeValue(market, 1, 5n)).toBe(3n);
    expect(holdingValue({ market, tokens: [7n, 5n] })).toBe(5n);
  });

  it("marks a closed market at its last prices too (the vault reads prices until it is settled)", () => {
    const market: MarketState = { status: "closed", resolvedOutcome: null, pricesWad: [WAD / 4n, (3n * WAD) / 4n] };
    expect(holdingValue({ market, tokens: [4_000_000n, 2_000_000n] })).toBe(1_000_000n + 1_500_000n);
  });

  it("counts only the winner's tokens of a resolved market, at 1 USDC each", () => {
    expect(holdingValue({ market: resolved(1), tokens: [9_000_000n, 3_000_001n] })).toBe(3_000_001n);
    expect(holdingValue({ market: resolved(0), tokens: [0n, 3_000_001n] })).toBe(0n);
    expect(outcomeValue(resolved(1), 0, 9_000_000n)).toBe(0n);
  });

  it("divides a voided market's tokens by the outcome count once per market, not per outcome", () => {
    // Per outcome: 1/3 + 1/3 + 1/3 = 0; once per market: 3/3 = 1.
    expect(holdingValue({ market: voided(3), tokens: [1n, 1n, 1n] })).toBe(1n);
    expect(holdingValue({ market: voided(3), tokens: [10n, 0n, 0n] })).toBe(3n);
  });

  it("adds cash and every holding into the net asset value", () => {
    const holdings = [
      { market: trading([WAD / 2n, WAD / 2n]), tokens: [3n, 0n] },
      { market: resolved(0), tokens: [5n, 7n] },
    ];
    expect(netAssetValue(100n, holdings)).toBe(100n + 1n + 5n);
    expect(netAssetValue(42n, [])).toBe(42n);
  });

  it("values a bond as its share of the net asset value, rounded down, without a fee at or below its high water", () => {
    expect(bondValue({ nav: 1000n, shares: 1n, totalShares: 3n, highWater: 400n, feeBps: 1000 })).toEqual({
      value: 333n,
      fee: 0n,
    });
    expect(bondValue({ nav: 1200n, shares: 1n, totalShares: 3n, highWater: 400n, feeBps: 1000 })).toEqual({
      value: 400n,
      fee: 0n,
    });
  });

  it("takes the fee on the gain above the high water, rounded down", () => {
    // gross = 1_234_567 × 3 / 4 = 925_925; gain 125_925; fee 12.5% = 15_740.625 → 15_740.
    expect(bondValue({ nav: 1_234_567n, shares: 3n, totalShares: 4n, highWater: 800_000n, feeBps: 1250 })).toEqual({
      value: 925_925n - 15_740n,
      fee: 15_740n,
    });
  });

  it("is worth nothing once its shares are gone", () => {
    expect(bondValue({ nav: 1000n, shares: 0n, totalShares: 10n, highWater: 0n, feeBps: 2000 })).toEqual({
      value: 0n,
      fee: 0n,
    });
  });
});
