import type { Db } from "./pool";

export type CandleRow = { bucket_start: string; close: number[] };

export const candlesSql = (views: string) => `
    SELECT bucket_start::text, close FROM "${views}".price_candle
     WHERE market = $1 AND interval = $2 AND bucket_start >= $3 AND bucket_start <= $4
     ORDER BY bucket_start`;

export function priceQueries(db: Db, views: string) {
  const rangeSql = candlesSql(views);
  // The last close before the range, carried into its first buckets.
  const beforeSql = `
    SELECT close FROM "${views}".price_candle
     WHERE market = $1 AND interval = $2 AND bucket_start < $3
     ORDER BY bucket_start DESC LIMIT 1`;

  return {
    async candles(market: string, interval: string, fromSeconds: number, toSeconds: number) {
      const [inRange, before] = await Promise.all([
        db.query<CandleRow>({
          name: "candles_range",
          text: rangeSql,
          values: [market, interval, fromSeconds, toSeconds],
        }),
        db.query<{ close: number[] }>({
          name: "candles_before",
          text: beforeSql,
          values: [market, interval, fromSeconds],
        }),
      ]);
      return { candles: inRange.rows, closeBefore: before.rows[0]?.close ?? null };
    },
  };
}
