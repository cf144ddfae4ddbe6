import { describe, expect, it } from "vitest";
import { toUsdcUnits, USDC_DECIMALS, USDC_UNIT, usdcNumber, usdcString } from "./constants";

describe("USDC units", () => {
  it("has 6 decimals: one USDC is 1,000,000 units", () => {
    expect(USDC_DECIMALS).toBe(6);
    expect(USDC_UNIT).toBe(1_000_000n);
  });

  it("turns decimal amounts into units exactly", () => {
    expect(toUsdcUnits(12.5)).toBe(12_500_000n);
    expect(toUsdcUnits("0.000001")).toBe(1n);
    expect(toUsdcUnits(0.1 + 0.2)).toBe(300_000n);
  });

  it("serves units as a decimal number and as a string that keeps every digit", () => {
    expect(usdcNumber(1_500_000n)).toBe(1.5);
    expect(usdcNumber("1")).toBe(0.000001);
    expect(usdcString(123_456_789_012_345_678n)).toBe("123456789012.345678");
    expect(usdcString(toUsdcUnits(25.5))).toBe("25.5");
  });
});
