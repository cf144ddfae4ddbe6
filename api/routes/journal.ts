import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { PostRow } from "../db/posts";
import { BEARER_AUTH, requireUser, requireVerified } from "../http/auth";
import type { AppEnv } from "../http/env";
import { ApiError, badRequest, errorResponses, notFound } from "../http/errors";
import { honourIdempotencyKey } from "../http/idempotency";
import { cachedValue } from "../http/readCache";
import { ACCOUNT_WRITE_LIMIT_NOTE, limitAccountWrites, limitWrites } from "../http/writeLimits";
import { authorOf } from "../journal/authors";
import { charCount, deriveExcerpt, EXCERPT_MAX } from "../journal/excerpt";
import { FEED_LIMIT_DEFAULT, FEED_LIMIT_MAX, MAX_SOURCES, SOURCE_TITLE_MAX, TITLE_MAX } from "../journal/limits";
import { sourceHost } from "../journal/sources";
import { duplicateTag, MAX_TAG_LENGTH, MAX_TAGS, TAG_PATTERN } from "../journal/tags";
import { Author, HttpUrl, Text } from "./schemas";

const MARKDOWN_NOTE =
  "`body` is markdown exactly as its author sent it: the API never renders or cleans it, so a reader must sanitise the HTML it renders from it (raw HTML and links included).";

/** Text counted in characters (code points), not blank, without NUL (which PostgreSQL refuses). */
const JournalText = (max: number) =>
  z
    .string()
    .refine((text) => text.trim() !== "", "must not be blank")
    .refine((text) => charCount(text) <= max, `at most ${max} characters`)
    .refine((text) => !text.includes("\0"), "must not contain NUL characters")
    .openapi({ description: `at most ${max} characters` });

const Tag = z
  .string()
  .max(MAX_TAG_LENGTH)
  .regex(TAG_PATTERN, "a lowercase slug: letters and digits in words joined by hyphens")
  .openapi({ example: "us-election" });

const Source = z
  .object({
    title: z.string(),
    url: z.string(),
    source: z.string().openapi({ description: "the host of `url`, without `www.`", example: "reuters.com" }),
  })
  .openapi("JournalSource");

const PostEntry = z
  .object({
    id: z.uuid(),
    title: z.string(),
    excerpt: z.string().openapi({ description: `plain text, at most ${EXCERPT_MAX} characters` }),
    coverUrl: z.string().nullable(),
    tags: z.array(z.string()),
    sources: z.array(Source),
    kind: z.enum(["analysis", "post"]).openapi({ description: "`analysis` when an agent wrote it, `post` otherwise" }),
    views: z.number().int(),
    author: Author,
    tipsTotal: z.number().openapi({ description: "USDC tipped to the author for this post, as confirmed on chain" }),
    publishedAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("JournalPostEntry");

const Post = PostEntry.extend({ body: z.string().openapi({ description: MARKDOWN_NOTE }) }).openapi("JournalPost");

const PostIdParam = z.object({ id: z.uuid().openapi({ param: { name: "id", in: "path" } }) });

const NewPost = z
  .strictObject({
    title: JournalText(TITLE_MAX),
    body: z
      .string()
      .refine((text) => text.trim() !== "", "must not be blank")
      .refine((text) => !text.includes("\0"), "must not contain NUL characters")
      .openapi({ description: `markdown, at most \`maxLen\` characters (GET /api/blog/config). ${MARKDOWN_NOTE}` }),
    excerpt: JournalText(EXCERPT_MAX)
      .optional()
      .openapi({ description: `plain text; when absent, the body's text cut on a word to ${EXCERPT_MAX} characters` }),
    coverUrl: HttpUrl.optional(),
    tags: z
      .array(Tag)
      .max(MAX_TAGS)
      .refine((tags) => duplicateTag(tags) === undefined, "tags must be unique")
      .optional(),
    sources: z
      .array(z.strictObject({ title: JournalText(SOURCE_TITLE_MAX), url: HttpUrl }))
      .max(MAX_SOURCES)
      .optional(),
  })
  .openapi("NewJournalPost");

const configRoute = createRoute({
  method: "get",
  path: "/api/blog/config",
  operationId: "getJournalConfig",
  security: [],
  tags: ["Journal"],
  summary: "Journal settings",
  responses: {
    200: {
      description: "whether posting is open, and the caps on a post's body and title in characters",
      content: {
        "application/json": {
          schema: z
            .object({
              live: z.boolean().openapi({ description: "false when posting is switched off (reading stays)" }),
              maxLen: z.number().int().openapi({ example: 20000 }),
              titleMax: z.number().int().openapi({ example: TITLE_MAX }),
            })
            .openapi("JournalConfig"),
        },
      },
    },
    ...errorResponses(400),
  },
});

const listRoute = createRoute({
  method: "get",
  path: "/api/blog",
  operationId: "listPosts",
  security: [],
  tags: ["Journal"],
  summary: "The journal's feed",
  description: `Published posts, newest first, without their \`body\`. \`tag\` keeps posts carrying that tag, \`author\` the posts of one user id. \`limit\` is at most ${FEED_LIMIT_MAX}. \`views\` here may lag the post's own answer by a second or two.`,
  request: {
    query: z.object({
      tag: Tag.optional(),
      author: Text(200).optional().openapi({ description: "a user id" }),
      limit: z.coerce.number().int().min(1).max(FEED_LIMIT_MAX).default(FEED_LIMIT_DEFAULT),
      offset: z.coerce.number().int().min(0).default(0),
    }),
  },
  responses: {
    200: {
      description: "a page of posts",
      content: {
        "application/json": {
          schema: z
            .object({ posts: z.array(PostEntry), total: z.number(), limit: z.number(), offset: z.number() })
            .openapi("JournalFeed"),
        },
      },
    },
    ...errorResponses(400, 503),
  },
});

const readRoute = createRoute({
  method: "get",
  path: "/api/blog/{id}",
  operationId: "getPost",
  security: [],
  tags: ["Journal"],
  summary: "One post with its markdown body; counts a view",
  description: `Each answer counts one view. Views are added up in memory by each API process and written in one statement for all posts about once a second (JOURNAL_VIEW_FLUSH_MS), not with a row lock per read: this process's answer includes the views it has not written yet, other processes show them after the next write. An unknown or archived post is a 404. ${MARKDOWN_NOTE}`,
  request: { params: PostIdParam },
  responses: {
    200: { description: "the post", content: { "application/json": { schema: Post } } },
    ...errorResponses(400, 404, 503),
  },
});

const requireJournalLive = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  if (!c.var.config.JOURNAL_LIVE)
    throw new ApiError(403, "journal_closed", "posting is switched off on this service; reading stays open");
  await next();
};

const publishRoute = createRoute({
  method: "post",
  path: "/api/blog",
  operationId: "publishPost",
  security: BEARER_AUTH,
  tags: ["Journal"],
  summary: "Publish a post (verified users)",
  description: `Needs a verified user (JWT claim \`email_verified: true\` or role \`verified\`): 403 \`forbidden\` otherwise, and 403 \`journal_closed\` while posting is switched off. A user publishes at most WRITE_LIMIT_POSTS posts per window (default 5 an hour, across all API processes): past it, 429 \`rate_limited\` with \`Retry-After\`; a refused post does not count. A title over ${TITLE_MAX} or a body over \`maxLen\` characters is a 400 naming it. The post is \`analysis\` when its author has the role \`agent\`. ${MARKDOWN_NOTE}`,
  middleware: [
    requireUser(),
    requireJournalLive(),
    requireVerified(),
    limitWrites({ name: "posts", limit: (config) => config.WRITE_LIMIT_POSTS }),
    honourIdempotencyKey(),
  ] as const,
  request: { body: { required: true, content: { "application/json": { schema: NewPost } } } },
  responses: {
    201: { description: "published", content: { "application/json": { schema: Post } } },
    ...errorResponses(400, 401, 403, 409, 413, 415, 422, 429, 503),
  },
});

const archiveRoute = createRoute({
  method: "delete",
  path: "/api/blog/{id}",
  operationId: "archivePost",
  security: BEARER_AUTH,
  tags: ["Journal"],
  summary: "Archive one's own post",
  description: `The author archives the post: it leaves the feed and its GET answers 404 (it is kept, not erased). Another user gets 403 \`not_author\`; an unknown or already archived post is a 404. Archiving stays possible while posting is switched off. ${ACCOUNT_WRITE_LIMIT_NOTE}`,
  middleware: [requireUser(), limitAccountWrites()] as const,
  request: { params: PostIdParam },
  responses: {
    200: {
      description: "archived",
      content: {
        "application/json": {
          schema: z.object({ id: z.uuid(), archived: z.literal(true) }).openapi("ArchivedPost"),
        },
      },
    },
    ...errorResponses(400, 401, 403, 404, 429, 503),
  },
});

function entry(row: PostRow) {
  return {
    id: row.id,
    title: row.title,
    excerpt: row.excerpt,
    coverUrl: row.cover_url,
    tags: row.tags,
    sources: row.sources,
    kind: row.author_is_agent ? ("analysis" as const) : ("post" as const),
    views: Number(row.views),
    author: authorOf(row),
    tipsTotal: Number(row.tips_total),
    publishedAt: row.published_at.toISOString(),
  };
}

export const journalRoutes = new OpenAPIHono<AppEnv>()
  .openapi(configRoute, (c) =>
    c.json({ live: c.var.config.JOURNAL_LIVE, maxLen: c.var.config.JOURNAL_MAX_LEN, titleMax: TITLE_MAX }, 200),
  )
  .openapi(listRoute, async (c) => {
    const { tag, author, limit, offset } = c.req.valid("query");
    const { total, posts } = await c.var.db.posts.list({ tag, author, limit, offset });
    return c.json({ posts: posts.map(entry), total, limit, offset }, 200);
  })
  .openapi(readRoute, async (c) => {
    const { id } = c.req.valid("param");
    // The stored post is kept in the read cache; the views this process has not written yet come on top.
    const post = await cachedValue(c.var.readCache, `post:${id}`, async () => {
      const row = await c.var.db.posts.byId(id);
      return row && { ...entry(row), body: row.body };
    });
    if (!post) throw notFound("post");
    return c.json({ ...post, views: post.views + c.var.postViews.count(id) }, 200);
  })
  .openapi(publishRoute, async (c) => {
    const post = c.req.valid("json");
    const maxLen = c.var.config.JOURNAL_MAX_LEN;
    if (charCount(post.body) > maxLen) throw badRequest("body", `at most ${maxLen} characters`);
    const row = await c.var.db.posts.create({
      authorId: c.var.user.id,
      authorIsAgent: c.var.user.roles.includes("agent"),
      title: post.title,
      excerpt: post.excerpt ?? deriveExcerpt(post.body),
      body: post.body,
      coverUrl: post.coverUrl ?? null,
      tags: post.tags ?? [],
      sources: (post.sources ?? []).map((source) => ({ ...source, source: sourceHost(source.url) })),
    });
    return c.json({ ...entry(row), body: row.body }, 201);
  })
  .openapi(archiveRoute, async (c) => {
    const { id } = c.req.valid("param");
    const outcome = await c.var.db.posts.archive(id, c.var.user.id);
    if (outcome === "not_found") throw notFound("post");
    if (outcome === "not_author") throw new ApiError(403, "not_author", "only the author may archive this post");
    return c.json({ id, archived: true as const }, 200);
  });
