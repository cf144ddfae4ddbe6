// Closing prices of a market's candles, read for its price history. One statement per history:
// every round trip costs both processes a system call per side, which on loopback was a good part
// of an uncached history's cost (bench/README.md, "API reads").
import pg, { type CustomTypesConfig } from "pg";
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

const INT8 = 20;
const FLOAT8_ARRAY = 1022;

/**
 * Parsers for this statement's two columns. pg's own float8[] parser walks the text a character at a
 * time and took most of the API's time for a 720-point history; a close never holds NULL, quotes or
 * nested arrays, so splitting on commas reads it exactly (`Number` takes PostgreSQL's float8 text,
 * `1e-05` and `Infinity` included).
 */
function parseFloatArray(text: string): number[] {
  if (text === "{}") return [];
  const parts = text.slice(1, -1).split(",");
  const values = new Array<number>(parts.length);
  for (let i = 0; i < parts.length; i++) values[i] = Number(parts[i]);
  return values;
}

const candleTypes = {
  getTypeParser: ((oid: number, format?: "text") => {
    if (oid === INT8) return Number;
    if (oid === FLOAT8_ARRAY) return parseFloatArray;
    return pg.types.getTypeParser(oid, format);
  }) as CustomTypesConfig["getTypeParser"],
};

export function priceQueries(db: Db, views: string) {
  const text = candlesSql(views);
  return {
    /** Candles from fromSeconds to toSeconds, oldest first, after the last one before fromSeconds if any. */
    async candles(market: string, interval: string, fromSeconds: number, toSeconds: number): Promise<Candle[]> {
      const { rows } = await db.query<[number, number[]]>({
        name: "candles",
        text,
        values: [market, interval, fromSeconds, toSeconds],
        rowMode: "array",
        types: candleTypes,
      });
      return rows.map(([start, close]) => ({ start, close }));
    },
  };
}
