import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { deleteComment, publishComment } from "../comments/publish";
import { findTarget } from "../comments/target";
import { commentView } from "../comments/view";
import { BEARER_AUTH, requireUser } from "../http/auth";
import type { AppEnv } from "../http/env";
import { errorResponses } from "../http/errors";
import { honourIdempotencyKey } from "../http/idempotency";
import { ACCOUNT_WRITE_LIMIT_NOTE, limitAccountWrites, limitWrites } from "../http/writeLimits";
import { Author, Text } from "./schemas";

export const COMMENT_MAX_LENGTH = 2_000;
export const MAX_COMMENTS_LIMIT = 100;

const TargetType = z.enum(["blog", "market"]).openapi({
  description: "`blog`: a journal post, named by its id; `market`: a market, named by its slug (drafts included)",
});
const TargetId = Text(100).openapi({ description: "the post's id or the market's slug" });
const CommentId = z.uuid().openapi({ example: "5b0c0b8e-3f0e-4d53-9d1a-0c6e2f1a7b11" });

const Comment = z
  .object({
    id: z.string(),
    userId: z.string().openapi({ description: "the author's user id" }),
    targetType: TargetType,
    targetId: z.string(),
    body: z.string().nullable().openapi({ description: "plain text as sent; null once deleted" }),
    parentId: z.string().nullable().openapi({ description: "the comment this one replies to" }),
    isDuel: z.boolean().openapi({ description: "a duel stance: the author takes a side" }),
    stance: z.string().nullable().openapi({
      description: "a duel's side: an outcome of the market (held by the author), or `agree`/`disagree` on a post",
    }),
    createdAt: z.string().openapi({ format: "date-time" }),
    deleted: z
      .boolean()
      .openapi({ description: "deleted by its author; listed only while replies below it remain, without body" }),
    author: Author,
  })
  .openapi("Comment");

const CommentBody = z.strictObject({
  targetType: TargetType,
  targetId: TargetId,
  body: Text(COMMENT_MAX_LENGTH)
    .refine((text) => text.trim() !== "", "must not be blank")
    .openapi({ description: `plain text, at most ${COMMENT_MAX_LENGTH} characters; readers must escape it` }),
  parentId: CommentId.nullable()
    .optional()
    .openapi({ description: "reply to this comment: a comment on the same target, not deleted" }),
  isDuel: z.boolean().optional().openapi({ description: "take a side (needs `stance`)" }),
  stance: Text(100).optional().openapi({
    description:
      "a duel's side: on a market, one of its outcomes, of which the author's wallet (or, for an agent, its vault) must hold tokens (as indexed); on a post, `agree` or `disagree`",
  }),
});

const listRoute = createRoute({
  method: "get",
  path: "/api/comments",
  operationId: "listComments",
  security: [],
  tags: ["Journal"],
  summary: "Comments on a journal post or a market",
  description: `Newest first, replies among them (each names its parent in \`parentId\`), so that a page is threaded by parentId. A deleted comment stays as a tombstone (\`deleted: true\`, no body) while a reply below it remains. \`total\` counts the comments listed across pages. \`limit\` is at most ${MAX_COMMENTS_LIMIT}. 404 for an unknown target (a post that is archived, a market that does not exist).`,
  request: {
    query: z.object({
      target_type: TargetType,
      target_id: TargetId,
      limit: z.coerce.number().int().min(1).max(MAX_COMMENTS_LIMIT).default(50),
      offset: z.coerce.number().int().min(0).default(0),
    }),
  },
  responses: {
    200: {
      description: "a page of comments",
      content: {
        "application/json": {
          schema: z
            .object({ comments: z.array(Comment), total: z.number(), limit: z.number(), offset: z.number() })
            .openapi("CommentList"),
        },
      },
    },
    ...errorResponses(400, 404, 503),
  },
});

const publishRoute = createRoute({
  method: "post",
  path: "/api/comments",
  operationId: "publishComment",
  security: BEARER_AUTH,
  tags: ["Journal"],
  summary: "Publish a comment, a reply or a duel stance",
  description:
    "Any authenticated user. The comment is sent on the live stream (GET /api/trade/stream) as a `comment` event. 400 for a blank or too long body, a parentId that is not a live comment on the same target, or a stance that does not fit the target (or comes without `isDuel`); 404 for an unknown target; 409 `stance_not_held` for a duel on a market outcome of which neither the author's wallet nor, for an agent, its vault holds tokens, as indexed from the chain. A user publishes at most WRITE_LIMIT_COMMENTS comments per window (default 30 in 10 minutes, across all API processes): past it, 429 `rate_limited` with `Retry-After`; a refused comment does not count.",
  middleware: [
    requireUser(),
    limitWrites({ name: "comments", limit: (config) => config.WRITE_LIMIT_COMMENTS }),
    honourIdempotencyKey(),
  ] as const,
  request: { body: { required: true, content: { "application/json": { schema: CommentBody } } } },
  responses: {
    201: { description: "published", content: { "application/json": { schema: Comment } } },
    ...errorResponses(400, 401, 404, 409, 413, 415, 422, 429, 503),
  },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/api/comments/{id}",
  operationId: "deleteComment",
  security: BEARER_AUTH,
  tags: ["Journal"],
  summary: "Delete one's own comment",
  description: `Only its author: 403 for anyone else, 404 for an unknown or already deleted comment. Replies to it stay, below a tombstone. ${ACCOUNT_WRITE_LIMIT_NOTE}`,
  middleware: [requireUser(), limitAccountWrites()] as const,
  request: { params: z.object({ id: CommentId.openapi({ param: { name: "id", in: "path" } }) }) },
  responses: {
    200: {
      description: "deleted",
      content: {
        "application/json": {
          schema: z
            .object({
              id: z.string(),
              deleted: z.literal(true),
              deletedAt: z.string().openapi({ format: "date-time" }),
            })
            .openapi("CommentDeleted"),
        },
      },
    },
    ...errorResponses(400, 401, 403, 404, 429, 503),
  },
});

export const commentRoutes = new OpenAPIHono<AppEnv>()
  .openapi(listRoute, async (c) => {
    const query = c.req.valid("query");
    const target = await findTarget(c.var.db, query.target_type, query.target_id, "target_id");
    const { total, comments } = await c.var.db.comments.list({
      targetType: target.type,
      targetId: target.type === "market" ? target.market.slug : target.postId,
      limit: query.limit,
      offset: query.offset,
    });
    return c.json({ comments: comments.map(commentView), total, limit: query.limit, offset: query.offset }, 200);
  })
  .openapi(publishRoute, async (c) => c.json(commentView(await publishComment(c.var, c.req.valid("json"))), 201))
  .openapi(deleteRoute, async (c) => {
    const deleted = await deleteComment(c.var, c.req.valid("param").id);
    return c.json({ id: deleted.id, deleted: true as const, deletedAt: deleted.deleted_at!.toISOString() }, 200);
  });
