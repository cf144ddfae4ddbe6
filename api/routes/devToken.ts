import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { mintLocalToken, usesLocalSecret } from "../auth/localToken";
import type { AppEnv } from "../http/env";
import { ApiError, errorResponses } from "../http/errors";

const LocalToken = z
  .object({
    token: z.string().openapi({ description: "a bearer JWT (HS256, no roles) for `userId`" }),
    userId: z.string(),
    expiresAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("LocalToken");

/** Before validation, so that a production API answers every request here as an unknown route. */
const localOnly = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  if (!usesLocalSecret(c.var.config))
    throw new ApiError(404, "route_not_found", `no route for ${c.req.method} ${c.req.path}`);
  await next();
};

const tokenRoute = createRoute({
  method: "get",
  path: "/api/dev/token",
  operationId: "mintLocalToken",
  security: [],
  middleware: [localOnly()] as const,
  tags: ["Local stack"],
  summary: "A token for any user, on the local stack only",
  description:
    "Signs in on the local stack (the explorer's local sign-in button): a token for the user named, without roles, valid for a day. Answers only while the API verifies tokens with the built-in local secret, which is public and proves nothing; with JWT_SECRET or JWKS_URL configured this route is a 404 like any unknown route.",
  request: {
    query: z.object({
      user: z
        .string()
        .min(1)
        .max(64)
        .regex(/^[A-Za-z0-9_.@-]+$/, "letters, digits and _ . @ -")
        .openapi({ example: "ada" }),
    }),
  },
  responses: {
    200: { description: "the token", content: { "application/json": { schema: LocalToken } } },
    ...errorResponses(400, 404),
  },
});

export const devTokenRoutes = new OpenAPIHono<AppEnv>().openapi(tokenRoute, async (c) => {
  const userId = c.req.valid("query").user;
  const { token, expiresAt } = await mintLocalToken(c.var.config, userId);
  c.header("cache-control", "no-store");
  return c.json({ token, userId, expiresAt: new Date(expiresAt * 1000).toISOString() }, 200);
});
