// Routes behind `Authorization: Bearer <JWT>` put the verified user on the context.
import type { MiddlewareHandler } from "hono";
import { AuthError } from "../auth/verifier";
import type { AppEnv } from "./env";
import { ApiError } from "./errors";

export const requireUser = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  try {
    c.set("user", await c.var.verifyToken(c.req.header("authorization")));
  } catch (error) {
    if (error instanceof AuthError) throw new ApiError(401, "unauthorized", error.message);
    throw error;
  }
  await next();
};

export const BEARER_AUTH = [{ bearerAuth: [] }];

/** After requireUser: only tokens with the `admin` role. */
export const requireAdmin = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  if (!c.var.user.isAdmin) throw new ApiError(403, "forbidden", "this operation needs the admin role");
  await next();
};

/** After requireUser: only verified users (`email_verified: true`, or the role `verified`). */
export const requireVerified = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  if (!c.var.user.verified)
    throw new ApiError(403, "forbidden", "this operation needs a verified user (email_verified or the verified role)");
  await next();
};
