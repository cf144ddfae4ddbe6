// Closing prices of a market's candles, read for its price history. One statement per history,
// answered as one bytea: the candles packed in PostgreSQL's binary send format (pg reads a bytea's
// hex text natively; its own binary result mode decodes bytes as UTF-8, so it cannot carry them).
// Sent as 720 text rows, a 30-day hourly history spent most of the API's time in pg's row parsing,
// the float8[] text and the garbage they left (bench/README.md, "Uncached reads").
import type { Db } from "./pool";

/** A candle's bucket start in unix seconds and its closing prices by outcome index. */
export type Candle = { start: number; close: number[] };

/**
 * The candles from `$3` to `$4`, oldest first, led by the last candle before `$3` (the price carried
 * into the first buckets). Ordered by the stored column, which the primary key's index yields
 * without a sort.
 */
export const candlesSql = (views: string) => `
    SELECT c.bucket_start::int8, c.close FROM "${views}".price_candle c
     WHERE c.market = $1 AND c.interval = $2 AND c.bucket_start <= $4
       AND c.bucket_start >= coalesce(
             (SELECT b.bucket_start FROM "${views}".price_candle b
               WHERE b.market = $1 AND b.interval = $2 AND b.bucket_start < $3
               ORDER BY b.bucket_start DESC LIMIT 1),
             $3)
     ORDER BY c.bucket_start`;

/**
 * The same candles as one bytea: per candle its start (int8send) then its closes (array_send).
 * The aggregate's own ORDER BY keeps the order guaranteed; its input comes sorted, so it costs little.
 */
export const packedCandlesSql = (views: string) => `
    SELECT string_agg(int8send(candle.bucket_start) || array_send(candle.close), ''::bytea ORDER BY candle.bucket_start)
      FROM (${candlesSql(views)}) candle`;

/**
 * Reads what packedCandlesSql packs. Each array is PostgreSQL's array_send: dimensions, a null flag,
 * the element type, each dimension's size and lower bound, then each element's length and value
 * (a close never holds NULL).
 */
export function unpackCandles(packed: Buffer | null): Candle[] {
  if (!packed) return [];
  const candles: Candle[] = [];
  let at = 0;
  while (at < packed.length) {
    const start = Number(packed.readBigInt64BE(at));
    const dimensions = packed.readInt32BE(at + 8);
    at += 20;
    const size = dimensions === 0 ? 0 : packed.readInt32BE(at);
    at += dimensions * 8;
    const close = new Array<number>(size);
    for (let i = 0; i < size; i++) {
      close[i] = packed.readDoubleBE(at + 4);
      at += 12;
    }
    candles.push({ start, close });
  }
  return candles;
}

export function priceQueries(db: Db, views: string) {
  const text = packedCandlesSql(views);
  return {
    /** Candles from fromSeconds to toSeconds, oldest first, after the last one before fromSeconds if any. */
    async candles(market: string, interval: string, fromSeconds: number, toSeconds: number): Promise<Candle[]> {
      const { rows } = await db.query<[Buffer | null]>({
        name: "candles",
        text,
        values: [market, interval, fromSeconds, toSeconds],
        rowMode: "array",
      });
      return unpackCandles(rows[0]![0]);
    },
  };
}
