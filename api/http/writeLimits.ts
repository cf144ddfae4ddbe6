// Write limits per user, shared by every API process: `limitWrites({ name, limit })` after
// requireUser counts each request of the user under `name` in PostgreSQL (hono-rate-limiter with
// PostgresLimitStore: one upsert per request, one clock for all processes, a fixed window opened by
// the user's first write). Within the limit the request goes on; past it the answer is a 429
// `rate_limited` with `Retry-After` (seconds until the window closes). A request that fails (4xx
// or 5xx) gives its hit back, so a post refused for a too-long title costs nothing. Every answer
// carries the IETF draft's `RateLimit-Policy: "<name>";q=<max>;w=<seconds>` and
// `RateLimit: "<name>";r=<remaining>;t=<seconds to reset>`.
import type { Context, MiddlewareHandler } from "hono";
import { type RateLimitInfo, rateLimiter } from "hono-rate-limiter";
import type { Config, WriteLimit } from "../config";
import type { Db } from "../db/pool";
import { PostgresLimitStore } from "../db/writeLimits";
import type { AppEnv } from "./env";
import { ApiError, errorResponse } from "./errors";

export type LimitWritesOptions = {
  /** Names the counter and the policy in the headers, e.g. `posts`. */
  name: string;
  /** The limit from the configuration, e.g. `(config) => config.WRITE_LIMIT_POSTS`. */
  limit: (config: Config) => WriteLimit;
};

export const limitWrites = (options: LimitWritesOptions): MiddlewareHandler<AppEnv> => {
  // Built on first use, since the configuration and the pool belong to the app, not the route.
  const limiters = new WeakMap<Config, MiddlewareHandler<AppEnv>>();
  const infoKey = `writeLimit:${options.name}`;
  const limiterFor = (config: Config, pool: Db) => {
    const { max, windowSeconds } = options.limit(config);
    const setHeaders = (c: Context<AppEnv>) => {
      const info = c.get(infoKey as never) as RateLimitInfo;
      const resetSeconds = secondsUntil(info.resetTime, windowSeconds);
      c.header("RateLimit-Policy", `"${options.name}";q=${max};w=${windowSeconds}`, { append: true });
      c.header("RateLimit", `"${options.name}";r=${info.remaining};t=${resetSeconds}`, { append: true });
      return resetSeconds;
    };
    const limiter = rateLimiter<AppEnv>({
      windowMs: windowSeconds * 1000,
      limit: max,
      keyGenerator: (c) => c.var.user.id,
      store: new PostgresLimitStore(pool, options.name),
      standardHeaders: false,
      skipFailedRequests: true,
      requestPropertyName: infoKey,
      handler: (c) => {
        const retryAfter = setHeaders(c);
        c.header("Retry-After", String(retryAfter));
        return errorResponse(
          c,
          new ApiError(
            429,
            "rate_limited",
            `at most ${max} ${options.name} per ${describeWindow(windowSeconds)}; try again in ${retryAfter} s`,
            { limit: options.name, max, windowSeconds, retryAfterSeconds: retryAfter },
          ),
        );
      },
    });
    return (async (c, next) =>
      limiter(c, async () => {
        setHeaders(c);
        await next();
      })) as MiddlewareHandler<AppEnv>;
  };
  return async (c, next) => {
    let limiter = limiters.get(c.var.config);
    if (!limiter) {
      limiter = limiterFor(c.var.config, c.var.db.pool);
      limiters.set(c.var.config, limiter);
    }
    return limiter(c, next);
  };
};

const secondsUntil = (time: Date | undefined, fallback: number) =>
  time ? Math.max(1, Math.ceil((time.getTime() - Date.now()) / 1000)) : fallback;

export function describeWindow(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? "hour" : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? "minute" : `${seconds / 60} minutes`;
  return seconds === 1 ? "second" : `${seconds} seconds`;
}
