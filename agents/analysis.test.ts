import { describe, expect, it } from "vitest";
import { analysisPost, positionComment } from "./analysis";
import type { Snapshot } from "./strategy";

const snapshot: Snapshot = {
  now: Date.parse("2026-11-22T10:05:00Z"),
  markets: [
    {
      slug: "fed-cuts",
      title: "Will the Fed cut?",
      outcomes: ["Yes", "No"],
      prices: [0.42, 0.58],
      b: 1000,
      feeBps: 50,
      closesAt: 0,
      history: [],
    },
  ],
  portfolio: {
    cash: 950,
    netAssetValue: 1001.5,
    holdings: [{ marketSlug: "fed-cuts", outcome: 0, tokens: 122.5, value: 51.5 }],
  },
  lastTradeAt: {},
};

describe("analysis posts", () => {
  it("sum up the vault, the positions and the rule's view of each market, with the markets as sources", () => {
    const post = analysisPost({
      agentName: "House Momentum",
      strategy: "momentum",
      snapshot,
      outlook: { "fed-cuts": "Yes rose from 0.40 to 0.42 in 1 h (+5.0%); threshold 10%: no signal" },
      marketUrl: (slug) => `http://127.0.0.1:3000/api/markets/${slug}`,
      counts: { decisions: 3, tradesConfirmed: 2 },
    });
    expect(post.title).toBe("House Momentum: positions and views, 2026-11-22 10:05 UTC");
    expect(post.tags).toEqual(["analysis", "momentum"]);
    expect(post.sources).toEqual([{ title: "Will the Fed cut?", url: "http://127.0.0.1:3000/api/markets/fed-cuts" }]);
    expect(post.body).toContain("Net asset value 1001.50 USDC, of which 950.00 USDC in cash");
    expect(post.body).toContain("- Will the Fed cut?: 122.50 Yes tokens worth 51.50 USDC at 0.42");
    expect(post.body).toContain(
      "- [Will the Fed cut?](http://127.0.0.1:3000/api/markets/fed-cuts): Yes rose from 0.40 to 0.42 in 1 h (+5.0%); threshold 10%: no signal",
    );
  });

  it("take a stance on the outcome bought when commenting a new position", () => {
    expect(positionComment({ outcome: "Yes", reasoning: "Because." })).toEqual({
      body: "I opened a position in Yes. Because.",
      isDuel: true,
      stance: "Yes",
    });
  });
});
