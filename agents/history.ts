// What a strategy reads from a market's observed prices: where a price was some time ago, how far it
// moved since, and a slow average that serves as a fair-value anchor. History points hold the prices
// from their moment until the next point (prices change only by trades).
import type { PricePoint } from "./strategy";

/** The prices in force at `at`: the last point at or before it, or the oldest point when all are later. */
export function pointAt(history: PricePoint[], at: number): PricePoint | undefined {
  let found: PricePoint | undefined;
  for (const point of history) {
    if (point.at > at) break;
    found = point;
  }
  return found ?? history[0];
}

export type Move = {
  outcome: number;
  from: number;
  to: number;
  /** Relative change, (to − from) / from. */
  change: number;
  /** How long the move took: from the reference point (or the window's start, if later) to now. */
  spanMs: number;
};

/** Each outcome's move from the prices in force `windowMs` before `now` to the current ones. */
export function movesOver(history: PricePoint[], now: number, windowMs: number): Move[] {
  const current = history.at(-1);
  const before = pointAt(history, now - windowMs);
  if (!current || !before || before === current) return [];
  const spanMs = now - Math.max(before.at, now - windowMs);
  return current.prices.map((to, outcome) => {
    const from = before.prices[outcome] ?? to;
    return { outcome, from, to, change: from > 0 ? (to - from) / from : 0, spanMs };
  });
}

/**
 * A time-weighted exponential average of each outcome's price, with the given half-life, from the
 * oldest point to `now`: a price held for one half-life moves the average half-way to it.
 */
export function averagePrices(history: PricePoint[], now: number, halfLifeMs: number): number[] {
  const first = history[0];
  if (!first) return [];
  const average = [...first.prices];
  for (let i = 0; i < history.length; i++) {
    const point = history[i]!;
    const until = history[i + 1]?.at ?? now;
    const weight = 1 - 2 ** (-Math.max(0, until - point.at) / halfLifeMs);
    point.prices.forEach((price, outcome) => {
      average[outcome] = average[outcome]! + weight * (price - average[outcome]!);
    });
  }
  return average;
}
