// What a comment is about: a market (by slug, drafts included) or a journal post that is not
// archived. Unknown targets are 404, for reads and writes alike.
import type { CommentTargetType } from "../db/comments";
import type { MarketRow } from "../db/markets";
import type { Queries } from "../http/env";
import { badRequest, marketNotFound, notFound } from "../http/errors";

export type CommentTarget = { type: "market"; market: MarketRow } | { type: "blog"; postId: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The target named by a type and an id; `parameter` is how the request names the id (for its 400). */
export async function findTarget(
  db: Pick<Queries, "markets" | "posts">,
  type: CommentTargetType,
  id: string,
  parameter: string,
): Promise<CommentTarget> {
  if (type === "market") {
    if (!SLUG.test(id)) throw badRequest(parameter, "a market is named by its slug");
    const market = await db.markets.bySlug(id);
    if (!market) throw marketNotFound();
    return { type, market };
  }
  if (!UUID.test(id)) throw badRequest(parameter, "a post is named by its id (a UUID)");
  const post = await db.posts.byId(id.toLowerCase());
  if (!post) throw notFound("post");
  return { type, postId: post.id };
}
