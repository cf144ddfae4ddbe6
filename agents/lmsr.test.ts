import { describe, expect, it } from "vitest";
import { buyCostToMove, priceAfterBuy, sellTokensToMove } from "./lmsr";

/** Prices of an LMSR with quantities q and parameter b, as Market.sol computes them (in floating point). */
const prices = (q: number[], b: number) => {
  const weights = q.map((x) => Math.exp(x / b));
  const sum = weights.reduce((a, w) => a + w, 0);
  return weights.map((w) => w / sum);
};
const cost = (q: number[], b: number) => b * Math.log(q.reduce((a, x) => a + Math.exp(x / b), 0));

describe("LMSR moves", () => {
  it("prices a buy that moves an outcome to the target, in a market of any size", () => {
    for (const q of [
      [0, 0],
      [120, -40],
      [10, 50, -30, 0],
    ]) {
      const b = 300;
      const p = prices(q, b)[0]!;
      const target = p + 0.07;
      const usdc = buyCostToMove({ b, feeBps: 0 }, p, target);
      // Tokens δ bought for that USDC: solve C(q + δ e0) − C(q) = usdc by bisection.
      let low = 0;
      let high = 10_000;
      for (let i = 0; i < 200; i++) {
        const mid = (low + high) / 2;
        if (cost([q[0]! + mid, ...q.slice(1)], b) - cost(q, b) < usdc) low = mid;
        else high = mid;
      }
      expect(prices([q[0]! + low, ...q.slice(1)], b)[0]).toBeCloseTo(target, 9);
    }
  });

  it("adds the fee on top of the curve's cost", () => {
    const plain = buyCostToMove({ b: 1000, feeBps: 0 }, 0.4, 0.45);
    expect(buyCostToMove({ b: 1000, feeBps: 100 }, 0.4, 0.45)).toBeCloseTo(plain / 0.99, 9);
    expect(priceAfterBuy({ b: 1000, feeBps: 100 }, 0.4, plain / 0.99)).toBeCloseTo(0.45, 9);
  });

  it("finds the tokens a sale needs to bring an outcome down to the target", () => {
    const q = [200, 0, -100];
    const b = 500;
    const p = prices(q, b)[0]!;
    const tokens = sellTokensToMove({ b }, p, p - 0.05);
    expect(prices([q[0]! - tokens, ...q.slice(1)], b)[0]).toBeCloseTo(p - 0.05, 9);
  });

  it("asks for nothing when the move goes the wrong way or out of bounds", () => {
    expect(buyCostToMove({ b: 100, feeBps: 50 }, 0.5, 0.4)).toBe(0);
    expect(buyCostToMove({ b: 100, feeBps: 50 }, 0.5, 1)).toBe(0);
    expect(sellTokensToMove({ b: 100 }, 0.5, 0.6)).toBe(0);
    expect(sellTokensToMove({ b: 100 }, 0.5, 0)).toBe(0);
  });
});
