import { describe, expect, it } from "vitest";
import { averagePrices, movesOver, pointAt } from "./history";

const MINUTE = 60_000;
const history = [
  { at: 0, prices: [0.4, 0.6] },
  { at: 30 * MINUTE, prices: [0.45, 0.55] },
  { at: 50 * MINUTE, prices: [0.52, 0.48] },
];

describe("price history", () => {
  it("finds the prices in force at a moment", () => {
    expect(pointAt(history, 29 * MINUTE)!.prices).toEqual([0.4, 0.6]);
    expect(pointAt(history, 30 * MINUTE)!.prices).toEqual([0.45, 0.55]);
    expect(pointAt(history, -5)!.prices).toEqual([0.4, 0.6]);
    expect(pointAt([], 0)).toBeUndefined();
  });

  it("measures each outcome's move over the window", () => {
    const [yes, no] = movesOver(history, 60 * MINUTE, 60 * MINUTE);
    expect(yes).toMatchObject({ outcome: 0, from: 0.4, to: 0.52, spanMs: 60 * MINUTE });
    expect(yes!.change).toBeCloseTo(0.3, 12);
    expect(no!.change).toBeCloseTo(-0.2, 12);
    // A shorter window starts from the prices in force at its start.
    const [recent] = movesOver(history, 60 * MINUTE, 20 * MINUTE);
    expect(recent).toMatchObject({ from: 0.45, to: 0.52, spanMs: 20 * MINUTE });
  });

  it("measures no move without an earlier point", () => {
    expect(movesOver(history.slice(0, 1), MINUTE, MINUTE)).toEqual([]);
    expect(movesOver([], 0, MINUTE)).toEqual([]);
  });

  it("averages prices over time with the half-life given", () => {
    // 0.4 from 0 to 30 min, then 0.45 until 50 min, then 0.52 until 60 min; half-life 30 min.
    let expected = 0.4;
    expected += (1 - 2 ** (-20 / 30)) * (0.45 - expected);
    expected += (1 - 2 ** (-10 / 30)) * (0.52 - expected);
    expect(averagePrices(history, 60 * MINUTE, 30 * MINUTE)[0]).toBeCloseTo(expected, 12);
    // A long half-life stays near the first price; a short one follows the last.
    expect(averagePrices(history, 60 * MINUTE, 1e12)[0]).toBeCloseTo(0.4, 6);
    expect(averagePrices(history, 60 * MINUTE, 1)[0]).toBeCloseTo(0.52, 6);
  });
});
