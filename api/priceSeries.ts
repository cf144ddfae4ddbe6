// The price history a market serves: one point per candle bucket in a window, each the last price
// of its bucket, and a bucket without trades carrying the previous price forward. Pure, so the
// window rules and the fill are tested alone (api/priceSeries.test.ts).
import { CANDLE_INTERVAL_SECONDS, type CandleInterval } from "../constants";
import { badRequest } from "./http/errors";

/** Most points one answer holds. */
export const MAX_PRICE_POINTS = 1000;

export type PriceWindow = { first: number; last: number; size: number };

const tooManyPoints = (interval: CandleInterval) =>
  badRequest(
    "from",
    `the range holds more than ${MAX_PRICE_POINTS} ${interval} points; narrow from/to or use a longer interval`,
  );

/**
 * The buckets asked for, in unix seconds: `from` defaults to the market's creation or as far back
 * as the point limit allows, `to` to now. A range of more than MAX_PRICE_POINTS buckets is a 400
 * naming `from` (the bound applies to the range asked for, so one request always gets one answer);
 * null when nothing of the range falls after the market's creation.
 */
export function priceWindow(parameters: {
  interval: CandleInterval;
  fromSeconds?: number;
  toSeconds: number;
  createdSeconds: number;
}): PriceWindow | null {
  const { interval, toSeconds, createdSeconds } = parameters;
  const size = CANDLE_INTERVAL_SECONDS[interval];
  const bucket = (seconds: number) => seconds - (seconds % size);
  const fromSeconds = parameters.fromSeconds ?? Math.max(createdSeconds, toSeconds - (MAX_PRICE_POINTS - 1) * size);
  if (fromSeconds > toSeconds) throw badRequest("from", "must not be after to");
  if ((bucket(toSeconds) - bucket(fromSeconds)) / size + 1 > MAX_PRICE_POINTS) throw tooManyPoints(interval);
  const first = bucket(Math.max(fromSeconds, createdSeconds));
  const last = bucket(toSeconds);
  return last < first ? null : { first, last, size };
}

/**
 * One point per bucket from `window.first` to `end`: the close of the bucket, or else the price
 * carried from the bucket before (at the start: `opening`, the last close before the window).
 */
export function fillPriceSeries(parameters: {
  window: PriceWindow;
  interval: CandleInterval;
  /** The last bucket to answer; later than window.last when trades are stamped after now. */
  end: number;
  /** Closing prices by bucket start. */
  closes: Map<number, number[]>;
  opening: number[];
}): { start: number; prices: number[] }[] {
  const { window, end, closes } = parameters;
  if ((end - window.first) / window.size + 1 > MAX_PRICE_POINTS) throw tooManyPoints(parameters.interval);
  let current = parameters.opening;
  const points = [];
  for (let start = window.first; start <= end; start += window.size) {
    current = closes.get(start) ?? current;
    points.push({ start, prices: current });
  }
  return points;
}
