// Tips (api.tip) hold what the API sent; a tip counts only once the indexer has its USDC transfer,
// from the tipper's account to the author's for the amount sent, inside the same user operation,
// and that operation succeeded. Nothing here trusts the API's own record alone.
import { USDC_UNIT } from "../../constants";
import type { Db } from "./pool";

export type NewTip = {
  userOpHash: string;
  postId: string;
  tipperId: string;
  authorId: string;
  from: string;
  to: string;
  /** 6-decimal USDC units. */
  units: bigint;
};

export type ConfirmedTipRow = {
  user_op_hash: string;
  tipper_id: string;
  from_address: string;
  to_address: string;
  amount: string;
  tx_hash: string;
  block_number: string;
  log_index: number;
  timestamp: string;
};

/** The tips of the post `postId` (an SQL expression) that the chain confirms, with their transfer. */
const confirmedTipsSql = (views: string, postId: string) => `
  SELECT t.user_op_hash, t.tipper_id, t.from_address, t.to_address, t.amount,
         x.tx_hash, x.block_number, x.log_index, x.timestamp
    FROM api.tip t
    JOIN "${views}".user_operation u ON u.hash = t.user_op_hash AND u.success
    JOIN "${views}".usdc_transfer x
      ON x.user_op_hash = t.user_op_hash AND x."from" = t.from_address AND x."to" = t.to_address AND x.amount = t.amount
   WHERE t.post_id = ${postId}`;

/**
 * The confirmed tips' total of the post whose id is the SQL expression `postId`, in decimal USDC
 * (numeric): a scalar subquery for the posts' `tipsTotal`.
 */
export const confirmedTipsUsdcSql = (views: string, postId: string) =>
  `(SELECT trim_scale(coalesce(sum(amount), 0) / ${USDC_UNIT}) FROM (${confirmedTipsSql(views, postId)}) confirmed_tips)`;

export function tipQueries(db: Db, views: string) {
  const listSql = `
    WITH confirmed AS (${confirmedTipsSql(views, "$1")})
    SELECT (SELECT count(*) FROM confirmed)::int AS count,
           (SELECT coalesce(sum(amount), 0) FROM confirmed)::text AS total_units,
           page.*
      FROM (SELECT 1) one
      LEFT JOIN (SELECT * FROM confirmed ORDER BY block_number DESC, log_index DESC LIMIT $2 OFFSET $3) page ON true
     ORDER BY page.block_number DESC, page.log_index DESC`;

  return {
    /**
     * Records a tip about to be sent (again, when a retry sends the same operation); addresses are kept
     * lowercase, as the indexer writes them.
     */
    async record(tip: NewTip): Promise<void> {
      await db.query(
        `INSERT INTO api.tip (user_op_hash, post_id, tipper_id, author_id, from_address, to_address, amount)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (user_op_hash) DO NOTHING`,
        [
          tip.userOpHash.toLowerCase(),
          tip.postId,
          tip.tipperId,
          tip.authorId,
          tip.from.toLowerCase(),
          tip.to.toLowerCase(),
          tip.units.toString(),
        ],
      );
    },

    /** A page of the post's confirmed tips, newest first, with their count and total (USDC units). */
    async confirmed(
      postId: string,
      page: { limit: number; offset: number },
    ): Promise<{ count: number; totalUnits: bigint; tips: ConfirmedTipRow[] }> {
      const { rows } = await db.query({
        name: "tips_confirmed",
        text: listSql,
        values: [postId, page.limit, page.offset],
      });
      return {
        count: rows[0]!.count,
        totalUnits: BigInt(rows[0]!.total_units),
        tips: rows.filter((row) => row.user_op_hash !== null),
      };
    },
  };
}
