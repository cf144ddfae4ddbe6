// The live stream's log (api.stream_event): appending trade and retract events from the indexer's
// trade table, and reading events after a sequence number. Comments are appended by a trigger on
// api.comment (see the migration).
import type { Db } from "./pool";

/** Advisory lock every appender holds until commit, so that seq order is commit order. */
export const STREAM_LOCK = 7220111;
/** Notified after events are appended; every API process then reads the log past its head. */
export const STREAM_CHANNEL = "api_stream";

export type StreamEventType = "trade" | "retract" | "comment";

export type StreamEventRow = {
  seq: number;
  type: StreamEventType;
  market_slug: string | null;
  /** The event's JSON, compact, ready to send. */
  data: string;
};

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * Where comparing starts: `reorgDepth` blocks below the older of the newest announced trade and
 * the newest indexed one. The indexer cannot reorganise deeper; and should the chain have been
 * reset (the index now ends far below what was announced), everything is compared.
 */
const floorSql = (views: string) => `
  SELECT (least(coalesce((SELECT max(block_number) FROM api.stream_trade WHERE feed = $2 AND live), -1),
                coalesce((SELECT max(block_number) FROM "${views}".trade), -1)) - $1)::text AS floor`;

/** Announced trades in the reorg window that the indexer no longer has: each gets a retract event. */
const retractSql = (views: string) => `
  WITH gone AS (
    UPDATE api.stream_trade s SET live = false
     WHERE s.feed = $2 AND s.live AND s.block_number >= $1
       AND NOT EXISTS (SELECT 1 FROM "${views}".trade t WHERE t.id = s.trade_id)
    RETURNING s.trade_id, s.block_number, s.log_index, s.market_slug)
  INSERT INTO api.stream_event (feed, type, ref_id, market_slug, data)
  SELECT $2, 'retract', trade_id, market_slug,
         json_build_object('type', 'retract', 'id', trade_id, 'reason', 'reorg', 'marketSlug', market_slug,
                           'createdAt', to_char(now() AT TIME ZONE 'UTC', ${ISO}))
    FROM gone ORDER BY block_number DESC, log_index DESC`;

/** Indexed trades in the window not yet announced, oldest first, each with its trade event. */
const announceSql = (views: string) => `
  WITH fresh AS (
    SELECT t.id, t.block_number, t.log_index, t.trader, t.outcome, t.is_buy, t.usdc_amount, t.token_amount,
           t.avg_price, t.timestamp, t.tx_hash, t.user_op_hash, m.id AS market_id, m.slug, m.title,
           m.outcomes[t.outcome + 1] AS outcome_name
      FROM "${views}".trade t JOIN "${views}".market m ON m.address = t.market
     WHERE t.block_number >= $1
       AND NOT EXISTS (SELECT 1 FROM api.stream_trade s WHERE s.feed = $3 AND s.trade_id = t.id AND s.live)
     ORDER BY t.block_number, t.log_index
     LIMIT $2),
  marked AS (
    INSERT INTO api.stream_trade (feed, trade_id, block_number, log_index, market_slug, live)
    SELECT $3, id, block_number, log_index, slug, true FROM fresh
    ON CONFLICT (feed, trade_id) DO UPDATE
      SET live = true, block_number = EXCLUDED.block_number, log_index = EXCLUDED.log_index)
  INSERT INTO api.stream_event (feed, type, ref_id, market_slug, data)
  SELECT $3, 'trade', id, slug,
         json_build_object(
           'type', 'trade',
           'id', id,
           'userId', trader,
           'side', upper(outcome_name),
           'amount', trim_scale(usdc_amount / 1000000)::text,
           'question', title,
           'marketId', market_id,
           'entryPrice', avg_price,
           'txHash', tx_hash,
           'createdAt', to_char(to_timestamp(timestamp) AT TIME ZONE 'UTC', ${ISO}),
           'txId', coalesce(user_op_hash, tx_hash),
           'marketSlug', slug,
           'outcome', outcome_name,
           'outcomeIndex', outcome,
           'action', CASE WHEN is_buy THEN 'BUY' ELSE 'SELL' END,
           'tokens', trim_scale(token_amount / 1000000)::text,
           'blockNumber', block_number,
           'logIndex', log_index)
    FROM fresh ORDER BY block_number, log_index`;

/**
 * The log of the stream that follows the indexer views in `views` (its feed). Comments belong to
 * every feed.
 */
export function streamLogQueries(db: Db, views: string) {
  const floorOf = floorSql(views);
  const retract = retractSql(views);
  const announce = announceSql(views);

  return {
    /**
     * Brings the log up to date with the indexer's trade table: retracts announced trades that a
     * reorg removed, then announces new ones, comparing from the floor above. Returns the number
     * of events appended.
     */
    async syncTrades(options: { reorgDepth: number; batchSize: number }): Promise<number> {
      const client = await db.connect();
      try {
        await client.query("BEGIN");
        await client.query("SELECT pg_advisory_xact_lock($1)", [STREAM_LOCK]);
        const { rows } = await client.query<{ floor: string }>(floorOf, [options.reorgDepth, views]);
        const floor = rows[0]!.floor;
        let appended = (await client.query(retract, [floor, views])).rowCount ?? 0;
        for (;;) {
          const inserted = (await client.query(announce, [floor, options.batchSize, views])).rowCount ?? 0;
          appended += inserted;
          if (inserted < options.batchSize) break;
        }
        if (appended > 0) await client.query("SELECT pg_notify($1, '')", [STREAM_CHANNEL]);
        await client.query("COMMIT");
        return appended;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },

    async after(seq: number, limit: number): Promise<StreamEventRow[]> {
      const { rows } = await db.query<{ seq: string; type: StreamEventType; market_slug: string | null; data: unknown }>({
        name: "stream_after",
        // seq comes back as a string (pg's bigint); it is ordered as the number it is.
        text: `SELECT seq, type, market_slug, data FROM api.stream_event
                WHERE seq > $1 AND (feed = $3 OR feed IS NULL) ORDER BY seq LIMIT $2`,
        values: [seq, limit, views],
      });
      // Postgres spaces its JSON out; compacted once here, for every client.
      return rows.map((row) => ({ ...row, seq: Number(row.seq), data: JSON.stringify(row.data) }));
    },

    /** The newest sequence number, 0 for an empty log. */
    async head(): Promise<number> {
      const { rows } = await db.query<{ seq: string }>("SELECT coalesce(max(seq), 0)::text AS seq FROM api.stream_event");
      return Number(rows[0]!.seq);
    },

    /** Deletes events older than the retention window; returns how many. */
    async prune(retentionMs: number): Promise<number> {
      const result = await db.query("DELETE FROM api.stream_event WHERE created_at < now() - $1 * interval '1 millisecond'", [retentionMs]);
      return result.rowCount ?? 0;
    },
  };
}

export type StreamLog = ReturnType<typeof streamLogQueries>;
