import { describe, expect, it } from "vitest";
import { href, parseRoute, sectionOf } from "./router";

describe("explorer routes", () => {
  it("names each page by the URL's fragment", () => {
    expect(parseRoute("")).toEqual({ page: "markets", status: undefined });
    expect(parseRoute("#/")).toEqual({ page: "markets", status: undefined });
    expect(parseRoute("#/?status=resolved")).toEqual({ page: "markets", status: "resolved" });
    expect(parseRoute("#/market/btc-above-150k")).toEqual({ page: "market", slug: "btc-above-150k", interval: "1h" });
    expect(parseRoute("#/market/btc-above-150k?interval=1d")).toMatchObject({ interval: "1d" });
    expect(parseRoute("#/market/btc?interval=5m")).toMatchObject({ interval: "1h" });
    expect(parseRoute("#/agents")).toEqual({ page: "agents" });
    expect(parseRoute("#/agent/0xabc")).toEqual({ page: "agent", id: "0xabc" });
    expect(parseRoute("#/journal?tag=rates")).toEqual({ page: "journal", tag: "rates" });
    expect(parseRoute("#/post/5f0c")).toEqual({ page: "post", id: "5f0c" });
    expect(parseRoute("#/wallet")).toEqual({ page: "wallet" });
  });

  it("leaves fragments that are not pages alone and says which pages are missing", () => {
    expect(parseRoute("#main")).toBeUndefined();
    expect(parseRoute("#/nowhere")).toEqual({ page: "missing", path: "nowhere" });
    expect(parseRoute("#/market/")).toEqual({ page: "missing", path: "market/" });
    expect(parseRoute("#/post/a/b")).toEqual({ page: "missing", path: "post/a/b" });
  });

  it("writes fragments that read back as the same page", () => {
    for (const route of [
      { page: "markets", status: "active" },
      { page: "market", slug: "fed-cuts", interval: "4h" },
      { page: "market", slug: "fed-cuts", interval: "1h" },
      { page: "agent", id: "0x70997970c51812dc3a010c7d01b50e20d4dc79c8" },
      { page: "journal", tag: "rates & bonds" },
      { page: "post", id: "a b/c" },
      { page: "wallet" },
    ] as const)
      expect(parseRoute(href(route))).toEqual(route);
    expect(href({ page: "markets" })).toBe("#/");
  });

  it("puts each page under its navigation section", () => {
    expect(sectionOf({ page: "market", slug: "x", interval: "1h" })).toBe("markets");
    expect(sectionOf({ page: "post", id: "x" })).toBe("journal");
  });
});
