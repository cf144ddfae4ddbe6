// The live stream's log (api.stream_event): appending trade and retract events from the indexer's
// trade table, and reading events after a sequence number. Comments are appended by a trigger on
// api.comment (see the migration).
import type pg from "pg";
import { type Db, withClient } from "./pool";

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
 * One statement that brings the log up to date with the indexer's trade table, from a floor of
 * `reorgDepth` blocks below the older of the newest announced trade and the newest indexed one
 * (the indexer cannot reorganise deeper; should the chain have been reset, so that the index ends
 * far below what was announced, everything is compared):
 * - announced trades the indexer no longer has are marked gone and get a `retract` event, newest
 *   first; but only in blocks the indexer has indexed again, and only once it is ready. An
 *   indexer restarted after a crash first deletes what it had not finalized and then indexes it
 *   again, and after a backfill it indexes the newest blocks one by one: until it is past a
 *   trade's block, a missing trade is one it has not reached yet, not one a reorg undid. (The
 *   trades of a reset chain are thus retracted once the new chain's index passes their blocks.)
 * - indexed trades not announced get a `trade` event, oldest first, at most `batchSize` of them.
 * The two sets are disjoint (live trades missing from the index; indexed trades not live), so one
 * statement may touch both. Returns how many events it appended, and notifies if any.
 */
const syncSql = (views: string, reorgDepth: number, batchSize: number) => `
  WITH floor AS (
    SELECT least(coalesce((SELECT max(block_number) FROM api.stream_trade WHERE feed = '${views}' AND live), -1),
                 coalesce((SELECT max(block_number) FROM "${views}".trade), -1)) - ${reorgDepth} AS block),
  indexed AS (
    -- The newest block the indexer has indexed (a checkpoint's digits 27 to 42), -1 while it is not ready.
    SELECT CASE WHEN (SELECT value->>'is_ready' FROM "${views}"._ponder_meta WHERE key = 'app') = '1'
                THEN (SELECT min(substr(latest_checkpoint, 27, 16)::bigint) FROM "${views}"._ponder_checkpoint)
                ELSE -1 END AS block),
  gone AS (
    UPDATE api.stream_trade s SET live = false
     WHERE s.feed = '${views}' AND s.live AND s.block_number >= (SELECT block FROM floor)
       AND s.block_number <= (SELECT block FROM indexed)
       AND NOT EXISTS (SELECT 1 FROM "${views}".trade t WHERE t.id = s.trade_id)
    RETURNING s.trade_id, s.block_number, s.log_index, s.market_slug),
  fresh AS (
    SELECT t.id, t.block_number, t.log_index, t.trader, t.outcome, t.is_buy, t.usdc_amount, t.token_amount,
           t.avg_price, t.timestamp, t.tx_hash, t.user_op_hash, m.id AS market_id, m.slug, m.title,
           m.outcomes[t.outcome + 1] AS outcome_name
      FROM "${views}".trade t JOIN "${views}".market m ON m.address = t.market
     WHERE t.block_number >= (SELECT block FROM floor)
       AND NOT EXISTS (SELECT 1 FROM api.stream_trade s WHERE s.feed = '${views}' AND s.trade_id = t.id AND s.live)
     ORDER BY t.block_number, t.log_index
     LIMIT ${batchSize}),
  marked AS (
    INSERT INTO api.stream_trade (feed, trade_id, block_number, log_index, market_slug, live)
    SELECT '${views}', id, block_number, log_index, slug, true FROM fresh
    ON CONFLICT (feed, trade_id) DO UPDATE
      SET live = true, block_number = EXCLUDED.block_number, log_index = EXCLUDED.log_index),
  appended AS (
    INSERT INTO api.stream_event (feed, type, ref_id, market_slug, data)
    SELECT '${views}', type, ref_id, market_slug, data FROM (
      SELECT 0 AS phase, -block_number AS block, -log_index AS log, 'retract' AS type, trade_id AS ref_id, market_slug,
             json_build_object('type', 'retract', 'id', trade_id, 'reason', 'reorg', 'marketSlug', market_slug,
                               'createdAt', to_char(now() AT TIME ZONE 'UTC', ${ISO})) AS data
        FROM gone
      UNION ALL
      SELECT 1, block_number, log_index, 'trade', id, slug,
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
        FROM fresh
    ) events ORDER BY phase, block, log
    RETURNING type)
  SELECT count(*)::int AS appended, count(*) FILTER (WHERE type = 'trade')::int AS announced,
         CASE WHEN count(*) > 0 THEN pg_notify('${STREAM_CHANNEL}', '') END AS notified
    FROM appended`;

/**
 * The log of the stream that follows the indexer views in `views` (its feed). Comments belong to
 * every feed.
 */
export function streamLogQueries(db: Db, views: string) {
  // Interpolated into the statements (so that a sync is one round trip, without parameters).
  if (!/^[a-z_][a-z0-9_]*$/.test(views)) throw new Error(`not a schema name: ${views}`);

  return {
    /**
     * Brings the log up to date with the indexer's trade table (see syncSql): one round trip per
     * `batchSize` trades announced. Returns the number of events appended.
     */
    async syncTrades(options: { reorgDepth: number; batchSize: number }): Promise<number> {
      const sync = `BEGIN; SELECT pg_advisory_xact_lock(${STREAM_LOCK}); ${syncSql(views, options.reorgDepth, options.batchSize)}; COMMIT`;
      return withClient(db, async (client) => {
        try {
          let appended = 0;
          for (;;) {
            const results = (await client.query(sync)) as unknown as pg.QueryResult<{
              appended: number;
              announced: number;
            }>[];
            const counts = results[2]!.rows[0]!;
            appended += counts.appended;
            if (counts.announced < options.batchSize) return appended;
          }
        } catch (error) {
          await client.query("ROLLBACK").catch(() => {});
          throw error;
        }
      });
    },

    async after(seq: number, limit: number): Promise<StreamEventRow[]> {
      const { rows } = await db.query<{
        seq: string;
        type: StreamEventType;
        market_slug: string | null;
        data: unknown;
      }>({
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
      const { rows } = await db.query<{ seq: string }>(
        "SELECT coalesce(max(seq), 0)::text AS seq FROM api.stream_event",
      );
      return Number(rows[0]!.seq);
    },

    /** Deletes events older than the retention window; returns how many. */
    async prune(retentionMs: number): Promise<number> {
      const result = await db.query(
        "DELETE FROM api.stream_event WHERE created_at < now() - $1 * interval '1 millisecond'",
        [retentionMs],
      );
      return result.rowCount ?? 0;
    },
  };
}

export type StreamLog = ReturnType<typeof streamLogQueries>;
