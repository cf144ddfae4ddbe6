import { describe, expect, it } from "vitest";
import { abbreviate, byOutcome, isoFromSeconds } from "./format";

describe("format", () => {
  it("abbreviates an address to its first 6 and last 4 characters", () => {
    expect(abbreviate("0x1234567890abcdef1234567890abcdef12345678")).toBe("0x1234…5678");
  });

  it("writes epoch seconds as an ISO timestamp", () => {
    expect(isoFromSeconds(0n)).toBe("1970-01-01T00:00:00.000Z");
  });

  it("keys values by outcome name and fills a missing value with 0", () => {
    expect(byOutcome(["Yes", "No"], [0.25])).toEqual({ Yes: 0.25, No: 0 });
  });
});
