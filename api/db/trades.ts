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

/** Newest first by (block_number, log_index), which the trade table's index serves. */
export const recentTradesSql = (views: string) => `
    SELECT t.tx_hash, t.user_op_hash, m.slug, m.outcomes[t.outcome + 1] AS outcome_name, t.is_buy,
           t.usdc_amount::text, t.avg_price, t.trader, t.timestamp::text
      FROM "${views}".trade t JOIN "${views}".market m ON m.address = t.market
     ORDER BY t.block_number DESC, t.log_index DESC
     LIMIT $1`;

/** One market's trades, newest first, which the trade table's (market, block_number, log_index) index serves. */
const recentInMarketSql = (views: string) => `
    SELECT t.tx_hash, t.user_op_hash, m.slug, m.outcomes[t.outcome + 1] AS outcome_name, t.is_buy,
           t.usdc_amount::text, t.avg_price, t.trader, t.timestamp::text
      FROM "${views}".market m JOIN "${views}".trade t ON t.market = m.address
     WHERE m.slug = $2
     ORDER BY t.block_number DESC, t.log_index DESC
     LIMIT $1`;

export function tradeQueries(db: Db, views: string) {
  const recentSql = recentTradesSql(views);
  const inMarketSql = recentInMarketSql(views);
  const marketTotalSql = `SELECT trade_count::int AS total FROM "${views}".market WHERE slug = $1`;
  // Every trade counted once, without counting the trade table: each market keeps its count.
  const totalSql = `SELECT coalesce(sum(trade_count), 0)::int AS total FROM "${views}".market`;

  return {
    async recent(limit: number): Promise<{ total: number; trades: RecentTradeRow[] }> {
      const [trades, total] = await Promise.all([
        db.query({ name: "trades_recent", text: recentSql, values: [limit] }),
        db.query({ name: "trades_total", text: totalSql }),
      ]);
      return { total: total.rows[0].total, trades: trades.rows };
    },
    /** undefined for a slug without an indexed market. */
    async recentInMarket(
      slug: string,
      limit: number,
    ): Promise<{ total: number; trades: RecentTradeRow[] } | undefined> {
      const [trades, total] = await Promise.all([
        db.query({ name: "trades_recent_in_market", text: inMarketSql, values: [limit, slug] }),
        db.query({ name: "trades_market_total", text: marketTotalSql, values: [slug] }),
      ]);
      if (total.rows.length === 0) return undefined;
      return { total: total.rows[0].total, trades: trades.rows };
    },
  };
}
