import { describe, expect, it } from "vitest";
import { checkRisk, RiskLimits } from "./risk";
import type { Decision, Portfolio } from "./strategy";

const limits = RiskLimits.parse({ maxDecisionUsdc: 50, maxPositionUsdc: 200, navFloorUsdc: 500 });
const portfolio: Portfolio = {
  cash: 600,
  netAssetValue: 790,
  holdings: [
    { marketSlug: "m", outcome: 0, tokens: 300, value: 160 },
    { marketSlug: "m", outcome: 1, tokens: 50, value: 25 },
  ],
};
const buy = (amount: number, marketSlug = "other"): Decision => ({
  action: "buy",
  marketSlug,
  outcome: 0,
  amount,
  maxPrice: 0.9,
  reasoning: "",
  confidence: 0.5,
});
const sell = (tokens: number): Decision => ({
  action: "sell",
  marketSlug: "m",
  outcome: 0,
  tokens,
  minPrice: 0.1,
  reasoning: "",
  confidence: 0.5,
});

describe("risk limits", () => {
  it("lets a decision within every limit through", () => {
    expect(checkRisk(buy(50), portfolio, limits)).toEqual({ ok: true });
    expect(checkRisk(sell(300), portfolio, limits)).toEqual({ ok: true });
  });

  it("skips a decision above the largest USDC per decision", () => {
    expect(checkRisk(buy(50.01), portfolio, limits)).toEqual({
      ok: false,
      reason: "50.01 USDC is above the largest decision of 50.00 USDC",
    });
  });

  it("skips a buy that would make the market's position too large, counting every outcome held there", () => {
    expect(checkRisk(buy(15, "m"), portfolio, limits)).toEqual({ ok: true });
    expect(checkRisk(buy(16, "m"), portfolio, limits)).toEqual({
      ok: false,
      reason: "the position in m would reach 201.00 USDC, above the largest of 200.00 USDC",
    });
  });

  it("stops below the floor of net asset value", () => {
    const poor = { ...portfolio, netAssetValue: 499.99 };
    expect(checkRisk(sell(10), poor, limits)).toEqual({
      ok: false,
      reason: "stopped: the vault's net asset value 499.99 USDC is below the floor of 500.00 USDC",
    });
  });

  it("skips what the vault cannot pay or does not hold", () => {
    expect(checkRisk(buy(40), { ...portfolio, cash: 39 }, limits)).toMatchObject({ ok: false });
    expect(checkRisk(sell(301), portfolio, limits)).toEqual({
      ok: false,
      reason: "selling 301 tokens but the vault holds 300",
    });
  });
});
