// Publishing a comment: its target must exist, a reply's parent must be a live comment on the same
// target, and a duel's stance must be valid for the target and, on a market, held by the author as
// the index shows. The row's trigger then puts the `comment` event on the live stream.
import type { CommentTargetType, ListedCommentRow } from "../db/comments";
import type { AppEnv } from "../http/env";
import { ApiError, badRequest, notFound } from "../http/errors";
import { duelOf } from "./stance";
import { type CommentTarget, findTarget } from "./target";

/** What publishing needs of the request's context: `c.var` fits. */
export type CommentContext = Pick<AppEnv["Variables"], "db" | "user">;

export type PublishCommentParameters = {
  targetType: CommentTargetType;
  targetId: string;
  body: string;
  parentId?: string | null;
  isDuel?: boolean;
  stance?: string;
};

export async function publishComment(
  context: CommentContext,
  request: PublishCommentParameters,
): Promise<ListedCommentRow> {
  const { db, user } = context;
  const target = await findTarget(db, request.targetType, request.targetId, "targetId");
  const targetId = target.type === "market" ? target.market.slug : target.postId;
  if (request.parentId) {
    const parent = await db.comments.byId(request.parentId);
    if (!parent || parent.deleted_at || parent.target_type !== target.type || parent.target_id !== targetId)
      throw badRequest("parentId", "not a comment on this target");
  }
  const duel = duelOf(request, target.type === "market" ? { outcomes: target.market.outcomes } : {});
  if (duel.isDuel && duel.outcome !== undefined) await requireHeld(context, target, duel.outcome, duel.stance);
  return db.comments.insert({
    userId: user.id,
    targetType: target.type,
    targetId,
    body: request.body,
    parentId: request.parentId ?? null,
    isDuel: duel.isDuel,
    stance: duel.stance,
    authorIsAgent: user.roles.includes("agent"),
  });
}

/**
 * A duel on a market stands only on an outcome the author's wallet holds tokens of, or for an agent
 * its vault (a 409 otherwise).
 */
async function requireHeld(context: CommentContext, target: CommentTarget, outcome: number, stance: string) {
  const market = target.type === "market" ? target.market.contract_address : null;
  const wallet = await context.db.wallets.find(context.user.id);
  const orItsVault = context.user.roles.includes("agent");
  const held =
    market !== null &&
    wallet !== undefined &&
    (await context.db.comments.holdsOutcome({ holder: wallet.address, market, outcome, orItsVault }));
  if (!held)
    throw new ApiError(
      409,
      "stance_not_held",
      `a duel on ${stance} needs ${stance} tokens in your wallet${orItsVault ? " or your vault" : ""} (as indexed)`,
    );
}

/** The author marks their comment deleted: 404 for an unknown (or deleted) one, 403 for another's. */
export async function deleteComment(context: CommentContext, id: string) {
  const comment = await context.db.comments.byId(id);
  if (!comment || comment.deleted_at) throw notFound("comment");
  if (comment.user_id !== context.user.id) throw new ApiError(403, "forbidden", "only its author may delete a comment");
  const deleted = await context.db.comments.markDeleted(id, context.user.id);
  if (!deleted) throw notFound("comment");
  return deleted;
}
