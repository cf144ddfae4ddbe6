import { describe, expect, it } from "vitest";
import { soakSettings } from "./settings";

describe("the soak's settings", () => {
  it("default to 200 traders for 60 s with 1,000 stream clients", () => {
    expect(soakSettings({}, false)).toMatchObject({ traders: 200, seconds: 60, clients: 1_000 });
  });

  it("start from the quick preset with --quick, and a variable wins over either", () => {
    expect(soakSettings({ SOAK_SECONDS: "30" }, true)).toMatchObject({ traders: 20, seconds: 30, clients: 50 });
  });

  it("report every bad variable at once, by name", () => {
    expect(() => soakSettings({ SOAK_TRADERS: "0", SOAK_POLL_MS: "fast" }, false)).toThrow(
      /SOAK_TRADERS.*\n.*SOAK_POLL_MS/,
    );
  });
});
