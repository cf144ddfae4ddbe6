import { describe, expect, it } from "vitest";
import { centsDown, confidence, duration, percent, price, tokenUnitsDown, usdc } from "./words";

describe("words", () => {
  it("writes prices, amounts and changes as the reasoning shows them", () => {
    expect(price(0.4149)).toBe("0.41");
    expect(usdc(20)).toBe("20.00 USDC");
    expect(percent(0.268)).toBe("+27%");
    expect(percent(-0.083)).toBe("-8.3%");
  });

  it("writes durations at the scale that fits", () => {
    expect(duration(45_000)).toBe("45 s");
    expect(duration(12 * 60_000)).toBe("12 min");
    expect(duration(3_600_000)).toBe("1 h");
    expect(duration(5_400_000)).toBe("1 h 30 min");
    expect(duration(3 * 86_400_000)).toBe("3 d");
  });

  it("rounds amounts down to what the API accepts and bounds confidences", () => {
    expect(centsDown(12.349)).toBe(12.34);
    expect(centsDown(0.29)).toBe(0.29);
    expect(tokenUnitsDown(1.2345678)).toBe(1.234567);
    expect(confidence(1.3)).toBe(1);
    expect(confidence(0.6449)).toBe(0.64);
  });
});
