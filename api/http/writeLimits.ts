// Write limits per user, shared by every API process: `limitWrites({ name, limit })` after
// requireUser counts each request of the user under `name` (rateLimits.ts: 429 `rate_limited` with
// `Retry-After` past the limit, the RateLimit headers on every answer). A request that fails (4xx
// or 5xx) gives its hit back, so a post refused for a too-long title costs nothing. A store that
// does not answer fails the write: a limit that lapses whenever Redis does would be no limit.
import type { MiddlewareHandler } from "hono";
import type { Config, RateLimit } from "../config";
import type { AppEnv } from "./env";
import { limitRequests } from "./rateLimits";

export type LimitWritesOptions = {
  /** Names the counter and the policy in the headers, e.g. `posts`. */
  name: string;
  /** The limit from the configuration, e.g. `(config) => config.WRITE_LIMIT_POSTS`. */
  limit: (config: Config) => RateLimit;
};

export const limitWrites = (options: LimitWritesOptions): MiddlewareHandler<AppEnv> =>
  limitRequests({
    name: options.name,
    noun: options.name,
    limit: options.limit,
    key: (c) => c.var.user.id,
    skipFailedRequests: true,
    failOpen: false,
  });
