import { describe, expect, it } from "vitest";
import { ApiError } from "../http/errors";
import { duelOf } from "./stance";

const market = { outcomes: ["Yes", "No"] };
const post = {};

const parameterOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError)
      return { status: error.status, parameter: (error.details as { parameter: string }).parameter };
    throw error;
  }
  throw new Error("no error");
};

describe("duelOf", () => {
  it("reads a comment without isDuel as no duel", () => {
    expect(duelOf({}, market)).toEqual({ isDuel: false, stance: null });
    expect(duelOf({ isDuel: false }, post)).toEqual({ isDuel: false, stance: null });
  });

  it("takes an outcome of the market as a duel's stance, with its index", () => {
    expect(duelOf({ isDuel: true, stance: "No" }, market)).toEqual({ isDuel: true, stance: "No", outcome: 1 });
  });

  it("takes agree or disagree as a duel's stance on a post", () => {
    expect(duelOf({ isDuel: true, stance: "agree" }, post)).toEqual({ isDuel: true, stance: "agree" });
    expect(duelOf({ isDuel: true, stance: "disagree" }, post)).toEqual({ isDuel: true, stance: "disagree" });
  });

  it.each([
    ["a duel without a stance", { isDuel: true }, market],
    ["a stance that is not an outcome", { isDuel: true, stance: "Maybe" }, market],
    ["an outcome in another case", { isDuel: true, stance: "yes" }, market],
    ["agree on a market", { isDuel: true, stance: "agree" }, market],
    ["an outcome on a post", { isDuel: true, stance: "Yes" }, post],
    ["a duel on a post without a stance", { isDuel: true }, post],
    ["a stance without a duel", { stance: "agree" }, post],
    ["a stance with isDuel false", { isDuel: false, stance: "Yes" }, market],
  ])("refuses %s with a 400 naming stance", (_, fields, target) => {
    expect(parameterOf(() => duelOf(fields, target))).toEqual({ status: 400, parameter: "stance" });
  });
});
