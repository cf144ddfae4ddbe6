import { describe, expect, it } from "vitest";
import { percent, price, shortHex, signedUsdc, timeAgo, tokens, usdc, utc } from "./format";

describe("explorer formats", () => {
  it("writes USDC with two decimals and thousands separators, from numbers and decimal strings", () => {
    expect(usdc(1234.5)).toBe("1,234.50 USDC");
    expect(usdc("25.5")).toBe("25.50 USDC");
    expect(usdc(0)).toBe("0.00 USDC");
  });

  it("writes tokens with up to four decimals, prices and percentages", () => {
    expect(tokens(15.864213)).toBe("15.8642");
    expect(tokens("3")).toBe("3");
    expect(price(0.6234)).toBe("62.3%");
    expect(price(1)).toBe("100.0%");
    expect(percent(0.705)).toBe("71%");
  });

  it("signs profits and losses", () => {
    expect(signedUsdc(12)).toBe("+12.00 USDC");
    expect(signedUsdc(-3.5)).toBe("−3.50 USDC");
    expect(signedUsdc(0)).toBe("0.00 USDC");
  });

  it("says how long ago in the largest unit that fits", () => {
    const now = Date.parse("2026-11-22T10:00:00Z");
    expect(timeAgo("2026-11-22T09:59:30Z", now)).toBe("30 seconds ago");
    expect(timeAgo("2026-11-22T07:00:00Z", now)).toBe("3 hours ago");
    expect(timeAgo("2026-11-24T10:00:00Z", now)).toBe("in 2 days");
  });

  it("writes times in UTC and shortens hashes", () => {
    expect(utc("2026-11-22T10:04:05.000Z")).toBe("2026-11-22 10:04 UTC");
    expect(shortHex("0x1234567890abcdef1234567890abcdef12345678")).toBe("0x1234…5678");
    expect(shortHex("0x1234")).toBe("0x1234");
  });
});
