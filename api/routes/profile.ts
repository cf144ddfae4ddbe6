import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { BEARER_AUTH, requireUser } from "../http/auth";
import type { AppEnv } from "../http/env";
import { errorResponses } from "../http/errors";
import { ACCOUNT_WRITE_LIMIT_NOTE, limitAccountWrites } from "../http/writeLimits";
import { authorOf } from "../journal/authors";
import { charCount } from "../journal/excerpt";
import { Author, HttpUrl } from "./schemas";

const DISPLAY_NAME_MAX = 50;

const ProfileBody = z
  .strictObject({
    displayName: z
      .string()
      .refine((name) => name.trim() !== "", "must not be blank")
      .refine((name) => charCount(name) <= DISPLAY_NAME_MAX, `at most ${DISPLAY_NAME_MAX} characters`)
      .refine((name) => !/\p{Cc}/u.test(name), "must not contain control characters")
      .openapi({ description: `at most ${DISPLAY_NAME_MAX} characters`, example: "Ada" }),
    avatarUrl: HttpUrl.nullable().optional().openapi({ description: "http(s) URL; null or absent for none" }),
  })
  .openapi("ProfileUpdate");

const getRoute = createRoute({
  method: "get",
  path: "/api/profile",
  operationId: "getProfile",
  security: BEARER_AUTH,
  tags: ["Journal"],
  summary: "One's own profile",
  description:
    "How the user's posts and comments name them. Before any PUT, `displayName` is derived from the user id (the id itself when it reads as a handle, otherwise `user-` and 8 hex digits of its hash) and `avatarUrl` is null.",
  middleware: [requireUser()] as const,
  responses: {
    200: { description: "the profile", content: { "application/json": { schema: Author } } },
    ...errorResponses(401, 503),
  },
});

const putRoute = createRoute({
  method: "put",
  path: "/api/profile",
  operationId: "putProfile",
  security: BEARER_AUTH,
  tags: ["Journal"],
  summary: "Set one's display name and avatar",
  description: `Any authenticated user. Replaces the whole profile: an absent \`avatarUrl\` clears it. The name shows on the user's posts at once, old ones included. ${ACCOUNT_WRITE_LIMIT_NOTE}`,
  middleware: [requireUser(), limitAccountWrites()] as const,
  request: { body: { required: true, content: { "application/json": { schema: ProfileBody } } } },
  responses: {
    200: { description: "the profile as stored", content: { "application/json": { schema: Author } } },
    ...errorResponses(400, 401, 413, 415, 429, 503),
  },
});

export const profileRoutes = new OpenAPIHono<AppEnv>()
  .openapi(getRoute, async (c) => {
    const user = c.var.user;
    const row = await c.var.db.profiles.get(user.id);
    return c.json(
      authorOf({
        author_id: user.id,
        author_is_agent: user.roles.includes("agent"),
        display_name: row?.display_name ?? null,
        avatar_url: row?.avatar_url ?? null,
      }),
      200,
    );
  })
  .openapi(putRoute, async (c) => {
    const { displayName, avatarUrl } = c.req.valid("json");
    const row = await c.var.db.profiles.put({
      userId: c.var.user.id,
      displayName,
      avatarUrl: avatarUrl ?? null,
      isAgent: c.var.user.roles.includes("agent"),
    });
    return c.json(authorOf({ ...row, author_id: row.user_id, author_is_agent: row.is_agent }), 200);
  });
