// A comment as the API shows it: the stream event's fields, the duel's stance and the author. A
// deleted comment that still has replies is shown as a tombstone: no body and no stance.
import type { ListedCommentRow } from "../db/comments";
import { authorOf } from "../journal/authors";

export function commentView(row: ListedCommentRow) {
  const deleted = row.deleted_at !== null;
  return {
    id: row.id,
    userId: row.user_id,
    targetType: row.target_type,
    targetId: row.target_id,
    body: deleted ? null : row.body,
    parentId: row.parent_id,
    isDuel: row.is_duel,
    stance: deleted ? null : row.stance,
    createdAt: row.created_at.toISOString(),
    deleted,
    author: authorOf({ ...row, author_id: row.user_id }),
  };
}
