// Closing prices of a market's candles, read for its price history. One statement per history,
// answered as one bytea: the candles packed with PostgreSQL's binary send functions (pg reads a
// bytea's hex text natively; its own binary result mode decodes bytes as UTF-8, so it cannot carry them).
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
 * The same candles as one bytea: per candle its start (int8send), then its `outcomes` closes
 * (float8send; a missing one as 0, as the answer writes it). Measured with pgbench on a 720-candle
 * history, array_send of each closes array cost twice the whole query, and an ORDER BY inside the
 * aggregate sorted the candles again (four times the cost): the aggregate takes them in the
 * subquery's index order, and unpackCandles sorts them should a plan ever deliver another order.
 */
export const packedCandlesSql = (views: string, outcomes: number) => {
  let candle = "int8send(candle.bucket_start)";
  for (let i = 1; i <= outcomes; i++) candle += ` || coalesce(float8send(candle.close[${i}]), float8send(0))`;
  return `SELECT string_agg(${candle}, ''::bytea) FROM (${candlesSql(views)}) candle`;
};

/** Reads what packedCandlesSql packs for `outcomes` outcomes, oldest first. */
export function unpackCandles(packed: Buffer | null, outcomes: number): Candle[] {
  if (!packed) return [];
  const stride = 8 + 8 * outcomes;
  const candles = new Array<Candle>(packed.length / stride);
  let ordered = true;
  for (let at = 0, index = 0; at < packed.length; at += stride, index++) {
    const start = Number(packed.readBigInt64BE(at));
    const close = new Array<number>(outcomes);
    for (let i = 0; i < outcomes; i++) close[i] = packed.readDoubleBE(at + 8 + 8 * i);
    if (index > 0 && start < candles[index - 1]!.start) ordered = false;
    candles[index] = { start, close };
  }
  return ordered ? candles : candles.sort((a, b) => a.start - b.start);
}

export function priceQueries(db: Db, views: string) {
  const texts = new Map<number, string>();
  return {
    /** Candles from fromSeconds to toSeconds, oldest first, after the last one before fromSeconds if any. */
    async candles(
      market: string,
      outcomes: number,
      interval: string,
      fromSeconds: number,
      toSeconds: number,
    ): Promise<Candle[]> {
      const text = texts.get(outcomes) ?? packedCandlesSql(views, outcomes);
      texts.set(outcomes, text);
      const { rows } = await db.query<[Buffer | null]>({
        name: `candles_${outcomes}`,
        text,
        values: [market, interval, fromSeconds, toSeconds],
        rowMode: "array",
      });
      return unpackCandles(rows[0]![0], outcomes);
    },
  };
}
