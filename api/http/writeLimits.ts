// Write limits, shared by every API process: `limitWrites({ name, limit })` after requireUser
// counts each request of the user under `name`; `limitWritesPerAddress` counts a write open to
// anyone under its client's address. Past the limit, rateLimits.ts answers 429 `rate_limited` with
// `Retry-After`; every answer carries the RateLimit headers. A request that fails (4xx or 5xx)
// gives its hit back, so a post refused for a too-long title costs nothing. A store that does not
// answer fails the write: a limit that lapses whenever Redis does would be no limit.
import type { MiddlewareHandler } from "hono";
import type { Config, RateLimit } from "../config";
import { clientKey } from "./clientAddress";
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

/** The sentence that documents a write limit in an operation's description. */
export const writeLimitNote = (setting: string, usual: string, noun: string, per = "user") =>
  `One ${per} sends at most ${setting} ${noun} per window (default ${usual}, across all API processes): past it, 429 \`rate_limited\` with \`Retry-After\`; a refused request does not count.`;

export const limitWritesPerAddress = (options: LimitWritesOptions): MiddlewareHandler<AppEnv> =>
  limitRequests({
    name: options.name,
    noun: `${options.name} from one address`,
    limit: options.limit,
    key: clientKey,
    skipFailedRequests: true,
    failOpen: false,
  });

/** The admin writes' one counter per user: market drafts, activations, resolutions, house-agent registrations. */
export const limitAdminWrites = () => limitWrites({ name: "admin", limit: (config) => config.WRITE_LIMIT_ADMIN });

export const ADMIN_WRITE_LIMIT_NOTE = writeLimitNote(
  "WRITE_LIMIT_ADMIN",
  "120 a minute",
  "market drafts, activations, resolutions and house-agent registrations",
);

/** The account writes' one counter per user: wallet openings, profile changes, deletions of one's posts and comments. */
export const limitAccountWrites = () => limitWrites({ name: "account", limit: (config) => config.WRITE_LIMIT_ACCOUNT });

export const ACCOUNT_WRITE_LIMIT_NOTE = writeLimitNote(
  "WRITE_LIMIT_ACCOUNT",
  "120 in 10 minutes",
  "wallet openings, profile changes and deletions",
);
