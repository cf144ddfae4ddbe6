// The price history a market serves: one point per candle bucket in a window, each the last price
// of its bucket, and a bucket without trades carrying the previous price forward. Pure, so the
// window rules and the fill are tested alone (api/priceSeries.test.ts).
import { CANDLE_INTERVAL_SECONDS, type CandleInterval } from "../constants";
import type { Candle } from "./db/prices";
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

export type PricePoint = { start: number; prices: number[] };

/**
 * One point per bucket from `window.first` to `end`: the close of the bucket, or else the price
 * carried from the bucket before (at the start: the last close before the window, else `opening`).
 */
export function fillPriceSeries(parameters: {
  window: PriceWindow;
  interval: CandleInterval;
  /** The last bucket to answer; later than window.last when trades are stamped after now. */
  end: number;
  /** Closing prices by bucket start, oldest first; those before window.first only carry their price in. */
  candles: Candle[];
  /** The price before any trade: the uniform opening prices. */
  opening: number[];
}): PricePoint[] {
  const { window, end, candles } = parameters;
  if ((end - window.first) / window.size + 1 > MAX_PRICE_POINTS) throw tooManyPoints(parameters.interval);
  let current = parameters.opening;
  let next = 0;
  const points: PricePoint[] = [];
  for (let start = window.first; start <= end; start += window.size) {
    while (next < candles.length && candles[next]!.start <= start) current = candles[next++]!.close;
    points.push({ start, prices: current });
  }
  return points;
}

/**
 * The price history's answer as JSON text: `{slug, interval, prices}` with each point
 * `{"timestamp": ISO, "<outcome>": price, ...}`, the same text JSON.stringify gives for those objects
 * (except for outcome names that are array indices, such as "2027", which an object would list first,
 * and for characters outside ASCII, which are escaped). Written directly because an uncached history
 * spent most of its time here: objects keyed by outcome names serialize slowly, and Date's
 * toISOString took about 1.7 µs a point. The text is ASCII only, so that it can be sent as latin1
 * bytes (api/http/jsonText.ts): encoding 65 KB as UTF-8 took longer than writing it.
 */
export function priceHistoryJson(parameters: {
  slug: string;
  interval: CandleInterval;
  outcomes: string[];
  points: PricePoint[];
}): string {
  const keys = parameters.outcomes.map((name) => `,${asciiJsonString(name)}:`);
  const { points } = parameters;
  let text = `{"slug":${asciiJsonString(parameters.slug)},"interval":"${parameters.interval}","prices":[`;
  for (let i = 0; i < points.length; i++) {
    const point = points[i]!;
    text += `${i === 0 ? "" : ","}{"timestamp":"${bucketTimestamp(point.start)}"`;
    for (let k = 0; k < keys.length; k++) text += keys[k] + jsonNumber(point.prices[k] ?? 0);
    text += "}";
  }
  return `${text}]}`;
}

/** JSON.stringify of a string with every character outside ASCII escaped (`\u00e9`): the same value once parsed. */
export const asciiJsonString = (value: string) =>
  JSON.stringify(value).replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);

const jsonNumber = (value: number) => (Number.isFinite(value) ? String(value) : "null");

const twoDigits = (value: number) => (value < 10 ? `0${value}` : `${value}`);

// Consecutive buckets share their day, so the date part is formatted once a day.
let memoDay = Number.NaN;
let memoDate = "";

/** The ISO 8601 text of a whole second, as `new Date(seconds * 1000).toISOString()` writes it. */
export function bucketTimestamp(seconds: number): string {
  const day = Math.floor(seconds / 86_400);
  if (day !== memoDay) {
    const iso = new Date(day * 86_400_000).toISOString();
    memoDate = iso.slice(0, iso.indexOf("T") + 1);
    memoDay = day;
  }
  const inDay = seconds - day * 86_400;
  return `${memoDate}${twoDigits(Math.floor(inDay / 3_600))}:${twoDigits(Math.floor(inDay / 60) % 60)}:${twoDigits(inDay % 60)}.000Z`;
}
