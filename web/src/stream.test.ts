import { describe, expect, it } from "vitest";
import { RecentIds, reconnectDelay, streamUrl } from "./stream";

describe("the live stream's resumption", () => {
  it("resumes after the last event id seen, by query when a new EventSource starts", () => {
    expect(streamUrl("/api/trade/stream?types=trade", undefined)).toBe("/api/trade/stream?types=trade");
    expect(streamUrl("/api/trade/stream?types=trade", "42")).toBe("/api/trade/stream?types=trade&lastEventId=42");
    expect(streamUrl("/api/trade/stream", "7")).toBe("/api/trade/stream?lastEventId=7");
  });

  it("waits longer after each failed attempt, up to 15 s", () => {
    expect([0, 1, 2, 3, 4, 10].map(reconnectDelay)).toEqual([1_000, 2_000, 4_000, 8_000, 15_000, 15_000]);
  });

  it("shows an event delivered twice once, remembering a bounded number of ids", () => {
    const ids = new RecentIds(2);
    expect(ids.add("a")).toBe(true);
    expect(ids.add("a")).toBe(false);
    expect(ids.add("b")).toBe(true);
    expect(ids.add("c")).toBe(true);
    expect(ids.add("a")).toBe(true);
    expect(ids.add("c")).toBe(false);
  });
});
