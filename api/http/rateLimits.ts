// One rate limit as Hono middleware: `limitRequests({ name, limit, key, ... })` counts each request
// that it applies to under `name` and the request's key (a client address, a user id) in the shared
// store (see limitStores.ts): a fixed window opened by the key's first request. Within the limit
// the request goes on; past it the answer is a 429 `rate_limited` with `Retry-After` (seconds
// until the window closes), counted on /metrics. Every counted answer carries the IETF draft's
// `RateLimit-Policy: "<name>";q=<max>;w=<seconds>` and `RateLimit: "<name>";r=<remaining>;t=<seconds
// to reset>`, appended, so that a write behind both limits shows both. readLimits.ts and
// writeLimits.ts say which requests count and under what key.
import type { Context, MiddlewareHandler } from "hono";
import { type RateLimitInfo, rateLimiter } from "hono-rate-limiter";
import type { Config, RateLimit } from "../config";
import type { AppEnv } from "./env";
import { ApiError, errorResponse } from "./errors";
import type { LimitStores } from "./limitStores";
import { countRateLimitRefusal } from "./metrics";

export type LimitRequestsOptions = {
  /** Names the counter and the policy in the headers, e.g. `posts`. */
  name: string;
  /** What is counted, for the refusal's message: "at most 5 <noun> per hour". */
  noun: string;
  /** The limit from the configuration; undefined switches it off. */
  limit: (config: Config) => RateLimit | undefined;
  key: (c: Context<AppEnv>) => string;
  /** Only requests it accepts count; all by default. */
  applies?: (c: Context<AppEnv>) => boolean;
  /** A request that fails (4xx or 5xx) gives its hit back, so a post refused as invalid costs nothing. */
  skipFailedRequests?: boolean;
  /** When the store does not answer: true lets the request pass uncounted, false fails it. */
  failOpen: boolean;
};

export const limitRequests = (options: LimitRequestsOptions): MiddlewareHandler<AppEnv> => {
  // Built on first use, since the configuration and the stores belong to the app, not the route.
  const limiters = new WeakMap<LimitStores, MiddlewareHandler<AppEnv> | null>();
  const infoKey = `rateLimit:${options.name}`;
  const limiterFor = (config: Config, stores: LimitStores) => {
    const limit = options.limit(config);
    if (!limit) return null;
    const { max, windowSeconds } = limit;
    const setHeaders = (c: Context<AppEnv>) => {
      const info = c.get(infoKey as never) as RateLimitInfo;
      const resetSeconds = secondsUntil(info.resetTime, windowSeconds);
      // Nothing was counted when the store failed open: no numbers to show.
      if (info.used === 0) return resetSeconds;
      c.header("RateLimit-Policy", `"${options.name}";q=${max};w=${windowSeconds}`, { append: true });
      c.header("RateLimit", `"${options.name}";r=${info.remaining};t=${resetSeconds}`, { append: true });
      return resetSeconds;
    };
    const limiter = rateLimiter<AppEnv>({
      windowMs: windowSeconds * 1000,
      limit: max,
      keyGenerator: options.key,
      store: stores.store(options.name, { failOpen: options.failOpen }),
      standardHeaders: false,
      skipFailedRequests: options.skipFailedRequests ?? false,
      requestPropertyName: infoKey,
      handler: (c) => {
        const retryAfter = setHeaders(c);
        c.header("Retry-After", String(retryAfter));
        countRateLimitRefusal(options.name);
        return errorResponse(
          c,
          new ApiError(
            429,
            "rate_limited",
            `at most ${max} ${options.noun} per ${describeWindow(windowSeconds)}; try again in ${retryAfter} s`,
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
    if (options.applies && !options.applies(c)) return next();
    const stores = c.var.limits;
    let limiter = limiters.get(stores);
    if (limiter === undefined) {
      limiter = limiterFor(c.var.config, stores);
      limiters.set(stores, limiter);
    }
    return limiter ? limiter(c, next) : next();
  };
};

const secondsUntil = (time: Date | undefined, fallback: number) =>
  time ? Math.max(1, Math.ceil((time.getTime() - Date.now()) / 1000)) : fallback;

export function describeWindow(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? "hour" : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? "minute" : `${seconds / 60} minutes`;
  return seconds === 1 ? "second" : `${seconds} seconds`;
}
