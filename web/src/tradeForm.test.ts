import { describe, expect, it } from "vitest";
import { limitPrice, parseAmount } from "./tradeForm";

describe("the trade form's figures", () => {
  it("sends the quote's average price with 2% slack as the order's limit, within (0, 1]", () => {
    expect(limitPrice("buy", 0.5)).toBe(0.51);
    expect(limitPrice("buy", 0.99)).toBe(1);
    expect(limitPrice("sell", 0.5)).toBe(0.49);
    expect(limitPrice("sell", 0.0000001)).toBe(0.000001);
  });

  it("accepts positive amounts with at most 6 decimals, as the API does", () => {
    expect(parseAmount(" 10 ")).toBe(10);
    expect(parseAmount("0.000001")).toBe(0.000001);
    for (const bad of ["", "0", "-1", "1.0000001", "1e3", "abc", "1,5"]) expect(parseAmount(bad)).toBeUndefined();
  });
});
