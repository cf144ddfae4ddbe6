import type { Db } from "./pool";

export type RecentTradeRow = {
  tx_hash: string;
  user_op_hash: string | null;
  slug: string;
  outcome_name: string;
  is_buy: boolean;
  usdc_amount: string;
  avg_price: number;
  trader: string;
  timestamp: string;
};

// Each list and its total come in one statement: a second round trip cost the API about as much as
// the rest of the request together (bench/README.md, "API reads").

/**
 * Newest first by (block_number, log_index), which the trade table's index serves; every row also
 * carries the total, every trade counted once from the markets' own counts (not a count of the
 * trade table).
 */
export const recentTradesSql = (views: string) => `
    SELECT t.tx_hash, t.user_op_hash, m.slug, m.outcomes[t.outcome + 1] AS outcome_name, t.is_buy,
           t.usdc_amount::text, t.avg_price, t.trader, t.timestamp::text,
           (SELECT coalesce(sum(trade_count), 0)::int FROM "${views}".market) AS total
      FROM "${views}".trade t JOIN "${views}".market m ON m.address = t.market
     ORDER BY t.block_number DESC, t.log_index DESC
     LIMIT $1`;

/**
 * One market's trades, newest first, which the trade table's (market, block_number, log_index) index
 * serves, each with the market's trade count; one row without a trade for a market without trades,
 * none for a slug without an indexed market.
 */
const recentInMarketSql = (views: string) => `
    SELECT t.tx_hash, t.user_op_hash, m.slug, m.outcomes[t.outcome + 1] AS outcome_name, t.is_buy,
           t.usdc_amount::text, t.avg_price, t.trader, t.timestamp::text, m.trade_count::int AS total
      FROM "${views}".market m
      LEFT JOIN LATERAL (
             SELECT * FROM "${views}".trade
              WHERE market = m.address
              ORDER BY block_number DESC, log_index DESC
              LIMIT $1) t ON true
     WHERE m.slug = $2
     ORDER BY t.block_number DESC, t.log_index DESC`;

type RowWithTotal = RecentTradeRow & { total: number };

export function tradeQueries(db: Db, views: string) {
  const recentSql = recentTradesSql(views);
  const inMarketSql = recentInMarketSql(views);

  return {
    async recent(limit: number): Promise<{ total: number; trades: RecentTradeRow[] }> {
      const { rows } = await db.query<RowWithTotal>({ name: "trades_recent", text: recentSql, values: [limit] });
      // No trade row means no trade indexed: the total is 0 then.
      return { total: rows[0]?.total ?? 0, trades: rows };
    },
    /** undefined for a slug without an indexed market. */
    async recentInMarket(
      slug: string,
      limit: number,
    ): Promise<{ total: number; trades: RecentTradeRow[] } | undefined> {
      const { rows } = await db.query<RowWithTotal>({
        name: "trades_recent_in_market",
        text: inMarketSql,
        values: [limit, slug],
      });
      if (rows.length === 0) return undefined;
      return { total: rows[0]!.total, trades: rows.filter((row) => row.tx_hash !== null) };
    },
  };
}
