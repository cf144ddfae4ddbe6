import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toUsdcUnits } from "../../constants";
import { averagePrice, claimPayout, decimalFraction, minTokensOut, minUsdcOut } from "./bounds";

const units = fc.bigInt({ min: 1n, max: 10n ** 15n });
/** Prices as clients send them: up to 9 decimals, in (0, 1]. */
const price = fc.integer({ min: 1, max: 1_000_000_000 }).map((n) => n / 1_000_000_000);

describe("decimalFraction", () => {
  it("reads a decimal number exactly", () => {
    expect(decimalFraction(0.62)).toEqual({ numerator: 62n, denominator: 100n });
    expect(decimalFraction(1)).toEqual({ numerator: 1n, denominator: 1n });
  });

  it("reads the exponent form JavaScript prints for small and large numbers", () => {
    expect(decimalFraction(1e-7)).toEqual({ numerator: 1n, denominator: 10_000_000n });
    expect(decimalFraction(1.5e-9)).toEqual({ numerator: 15n, denominator: 10_000_000_000n });
    expect(decimalFraction(2e21)).toEqual({ numerator: 2n * 10n ** 21n, denominator: 1n });
  });

  it("refuses what is not a finite non-negative number", () => {
    expect(() => decimalFraction(Number.NaN)).toThrow(RangeError);
    expect(() => decimalFraction(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => decimalFraction(-0.5)).toThrow(RangeError);
  });
});

describe("minTokensOut (maxPrice on a buy)", () => {
  it("is 0 without a price limit", () => {
    expect(minTokensOut(toUsdcUnits(10), undefined)).toBe(0n);
  });

  it("asks for spend / maxPrice tokens, rounded up", () => {
    expect(minTokensOut(toUsdcUnits(10), 0.5)).toBe(toUsdcUnits(20));
    // 1 USDC at most 0.3 each: 3.333333... tokens, so at least 3.333334.
    expect(minTokensOut(toUsdcUnits(1), 0.3)).toBe(3_333_334n);
  });

  it("keeps a limit finer than 6 decimals exact instead of rounding it to the unit", () => {
    // 0.0000001 rounds to 0 units; the bound must still be 10,000,000 tokens per USDC.
    expect(minTokensOut(toUsdcUnits(1), 1e-7)).toBe(toUsdcUnits(10_000_000));
  });

  it("never lets a fill at the minimum cost more than maxPrice per token", () => {
    fc.assert(
      fc.property(units, price, (spend, maxPrice) => {
        const tokens = minTokensOut(spend, maxPrice);
        const { numerator, denominator } = decimalFraction(maxPrice);
        // spend / tokens <= maxPrice, and one token fewer would be above it.
        expect(spend * denominator <= tokens * numerator).toBe(true);
        expect(spend * denominator > (tokens - 1n) * numerator).toBe(true);
      }),
    );
  });
});

describe("minUsdcOut (minPrice on a sale)", () => {
  it("is 0 without a price limit", () => {
    expect(minUsdcOut(toUsdcUnits(5), undefined)).toBe(0n);
  });

  it("asks for tokens × minPrice USDC, rounded up", () => {
    expect(minUsdcOut(toUsdcUnits(5), 0.4)).toBe(toUsdcUnits(2));
    expect(minUsdcOut(3n, 0.5)).toBe(2n);
  });

  it("never lets a fill at the minimum pay less than minPrice per token", () => {
    fc.assert(
      fc.property(units, price, (tokens, minPrice) => {
        const usdc = minUsdcOut(tokens, minPrice);
        const { numerator, denominator } = decimalFraction(minPrice);
        expect(usdc * denominator >= tokens * numerator).toBe(true);
        expect((usdc - 1n) * denominator < tokens * numerator).toBe(true);
      }),
    );
  });
});

describe("averagePrice", () => {
  it("is USDC per token", () => {
    expect(averagePrice(toUsdcUnits(3), toUsdcUnits(6))).toBe(0.5);
  });
});

describe("claimPayout", () => {
  it("pays 1 USDC per winning token of a resolved market", () => {
    expect(claimPayout({ voided: false, heldUnits: 1_234_567n, outcomeCount: 3 })).toBe(1_234_567n);
  });

  it("pays 1/n per token of a voided market, rounded down as the contract does", () => {
    expect(claimPayout({ voided: true, heldUnits: 10n, outcomeCount: 3 })).toBe(3n);
    expect(claimPayout({ voided: true, heldUnits: toUsdcUnits(4), outcomeCount: 2 })).toBe(toUsdcUnits(2));
  });
});
