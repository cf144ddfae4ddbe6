import { describe, expect, it } from "vitest";
import { HOUSE_AGENTS } from "./house";

const byKey = (key: string) => HOUSE_AGENTS.find((agent) => agent.key === key)!;

describe("house agents", () => {
  it("are one per strategy, each named after its key", () => {
    expect(HOUSE_AGENTS.map((agent) => agent.key)).toEqual(["market-maker", "momentum", "contrarian"]);
    for (const agent of HOUSE_AGENTS) expect(agent.build().strategy.name).toBe(agent.key);
  });

  it("take parameters and risk limits from settings, defaults for the rest", () => {
    const { strategy, risk } = byKey("momentum").build({ threshold: 0.05, maxDecisionUsdc: 20 });
    expect(risk).toEqual({ maxDecisionUsdc: 20, maxPositionUsdc: 250, navFloorUsdc: 500 });
    const market = {
      slug: "m",
      title: "M",
      outcomes: ["Yes", "No"],
      prices: [0.53, 0.47],
      b: 1000,
      feeBps: 0,
      closesAt: 0,
      history: [
        { at: 0, prices: [0.5, 0.5] },
        { at: 1000, prices: [0.53, 0.47] },
      ],
    };
    const snapshot = {
      now: 2000,
      markets: [market],
      portfolio: { cash: 100, netAssetValue: 100, holdings: [] },
      lastTradeAt: {},
    };
    // +6%: above a 5% threshold, below the default 10%.
    expect(strategy.decide(snapshot)).toHaveLength(1);
    expect(byKey("momentum").build().strategy.decide(snapshot)).toEqual([]);
  });

  it("refuse settings they do not know", () => {
    expect(() => byKey("contrarian").build({ treshold: 0.2 })).toThrow(/treshold/);
  });
});
