import { describe, expect, it } from "vitest";
import { ApiError } from "../http/errors";
import { claimableOutcomes, outcomeIndex, requireActive } from "./marketChecks";

const market = { outcomes: ["Yes", "No", "Unclear"], status: "active", resolved_outcome: null };

const thrown = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error as ApiError;
  }
  throw new Error("did not throw");
};

describe("outcomeIndex", () => {
  it("finds an outcome by its exact name", () => {
    expect(outcomeIndex(market, "Unclear")).toBe(2);
  });

  it("answers 400 naming `outcome` and listing the outcomes for a name not in the market", () => {
    const error = thrown(() => outcomeIndex(market, "yes"));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: "invalid_parameter", details: { parameter: "outcome" } });
    expect(error.message).toContain("Yes, No, Unclear");
  });
});

describe("requireActive", () => {
  it("lets an active market trade", () => {
    expect(() => requireActive(market)).not.toThrow();
  });

  it.each(["pending", "closed", "resolved", "voided"])("answers 409 market_not_active for a %s market", (status) => {
    expect(thrown(() => requireActive({ status }))).toMatchObject({ status: 409, code: "market_not_active" });
  });
});

describe("claimableOutcomes", () => {
  it("is the winner of a resolved market", () => {
    expect(claimableOutcomes({ ...market, status: "resolved", resolved_outcome: 1 })).toEqual([1]);
  });

  it("is every outcome of a voided market", () => {
    expect(claimableOutcomes({ ...market, status: "voided" })).toEqual([0, 1, 2]);
  });

  it("answers 400 market_not_resolved while the market is open or closed", () => {
    for (const status of ["active", "closed"])
      expect(thrown(() => claimableOutcomes({ ...market, status }))).toMatchObject({
        status: 400,
        code: "market_not_resolved",
      });
  });
});
