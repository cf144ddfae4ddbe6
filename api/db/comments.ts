// Comments on markets and journal posts (api.comment). Publishing inserts one row; the table's
// trigger puts the `comment` event on the live stream in the same transaction.
import type { Db } from "./pool";

export type CommentTargetType = "market" | "blog";

export type CommentRow = {
  id: string;
  user_id: string;
  target_type: CommentTargetType;
  target_id: string;
  body: string;
  parent_id: string | null;
  is_duel: boolean;
  stance: string | null;
  author_is_agent: boolean;
  created_at: Date;
  deleted_at: Date | null;
};

/** A comment with its author's profile, null where the author has set none. */
export type ListedCommentRow = CommentRow & { display_name: string | null; avatar_url: string | null };

export type NewComment = {
  userId: string;
  targetType: CommentTargetType;
  targetId: string;
  body: string;
  parentId: string | null;
  isDuel: boolean;
  stance: string | null;
  authorIsAgent: boolean;
};

// A deleted comment stays in the thread (as a tombstone) while a comment below it is still there,
// so that every listed reply finds its parent; deleted leaves are left out.
const listSql = `
  WITH RECURSIVE shown AS (
    SELECT id, parent_id FROM api.comment
     WHERE target_type = $1 AND target_id = $2 AND deleted_at IS NULL
    UNION
    SELECT parent.id, parent.parent_id FROM api.comment parent JOIN shown ON parent.id = shown.parent_id),
  page AS (
    SELECT c.*, p.display_name, p.avatar_url
      FROM api.comment c LEFT JOIN api.profile p ON p.user_id = c.user_id
     WHERE c.id IN (SELECT id FROM shown)
     ORDER BY c.created_at DESC, c.id DESC LIMIT $3 OFFSET $4)
  SELECT (SELECT count(DISTINCT id) FROM shown)::int AS total, page.*
    FROM (SELECT 1) one LEFT JOIN page ON true
   ORDER BY page.created_at DESC, page.id DESC`;

export function commentQueries(db: Db, views: string) {
  return {
    /** A page of a target's comments, newest first, and how many there are. */
    async list(filter: {
      targetType: CommentTargetType;
      targetId: string;
      limit: number;
      offset: number;
    }): Promise<{ total: number; comments: ListedCommentRow[] }> {
      const { rows } = await db.query({
        name: "comments_list",
        text: listSql,
        values: [filter.targetType, filter.targetId, filter.limit, filter.offset],
      });
      return { total: rows[0]?.total ?? 0, comments: rows.filter((row) => row.id !== null) };
    },

    async byId(id: string): Promise<CommentRow | undefined> {
      const { rows } = await db.query<CommentRow>("SELECT * FROM api.comment WHERE id = $1", [id]);
      return rows[0];
    },

    async insert(comment: NewComment): Promise<ListedCommentRow> {
      const { rows } = await db.query<ListedCommentRow>(
        `WITH inserted AS (
           INSERT INTO api.comment (user_id, target_type, target_id, body, parent_id, is_duel, stance, author_is_agent)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *)
         SELECT inserted.*, p.display_name, p.avatar_url
           FROM inserted LEFT JOIN api.profile p ON p.user_id = inserted.user_id`,
        [
          comment.userId,
          comment.targetType,
          comment.targetId,
          comment.body,
          comment.parentId,
          comment.isDuel,
          comment.stance,
          comment.authorIsAgent,
        ],
      );
      return rows[0]!;
    },

    /** Marks the author's comment deleted; undefined when it is not theirs or already deleted. */
    async markDeleted(id: string, userId: string): Promise<CommentRow | undefined> {
      const { rows } = await db.query<CommentRow>(
        "UPDATE api.comment SET deleted_at = now() WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL RETURNING *",
        [id, userId],
      );
      return rows[0];
    },

    /**
     * Whether the indexer shows `holder` holding tokens of the market's outcome; with `orItsVault`,
     * the vault of the agent whose account `holder` is counts too (an agent trades from its vault).
     */
    async holdsOutcome(position: {
      holder: string;
      market: string;
      outcome: number;
      orItsVault?: boolean;
    }): Promise<boolean> {
      const { rows } = await db.query<{ holds: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM "${views}".position
                         WHERE (holder = $1 OR ($4 AND holder IN (SELECT vault FROM "${views}".agent WHERE manager = $1)))
                           AND market = $2 AND outcome = $3 AND tokens > 0) AS holds`,
        [position.holder.toLowerCase(), position.market.toLowerCase(), position.outcome, position.orItsVault ?? false],
      );
      return rows[0]!.holds;
    },
  };
}
