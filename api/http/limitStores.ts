// Where the rate-limit counters live, so that every API process counts against the same numbers:
// PostgreSQL (api.write_limit, one upsert per counted request) by default, since a fresh machine
// has nothing else; Redis when REDIS_URL is set (hono-rate-limiter's RedisStore, one script call
// per request), which takes that write off the database. A Redis that does not answer fails a
// command within a second instead of queueing requests behind reconnection attempts. A limit that
// fails open (reads) then lets requests pass uncounted, counted on /metrics and logged once every
// 10 s; one that does not (writes) answers 503.
import { type ClientRateLimitInfo, RedisStore, type Store } from "hono-rate-limiter";
import { Redis } from "ioredis";
import type { Logger } from "pino";
import type { Db } from "../db/pool";
import { PostgresLimitStore } from "../db/writeLimits";
import type { AppEnv } from "./env";
import { ApiError } from "./errors";
import { countRateLimitStoreError } from "./metrics";

export type LimitStore = Store<AppEnv>;

const STARTUP_ATTEMPTS = 10;

export type LimitStores = {
  kind: "postgres" | "redis";
  /** The counters of one limit (`reads`, `posts`, ...), whose keys are client addresses or user ids. */
  store: (name: string, options: { failOpen: boolean }) => LimitStore;
  close: () => Promise<void>;
};

export async function createLimitStores(options: {
  pool: Db;
  redisUrl?: string;
  redisKeyPrefix?: string;
  logger: Logger;
}): Promise<LimitStores> {
  const { redisUrl, logger } = options;
  if (!redisUrl) return postgresLimitStores(options.pool, logger);
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 1_000, connectTimeout: 2_000 });
  let lastWarning = 0;
  redis.on("error", (error) => {
    // Reconnection attempts fail every few hundred ms while Redis is down: one line every 10 s says enough.
    if (Date.now() - lastWarning < 10_000) return;
    lastWarning = Date.now();
    logger.warn({ err: error }, "rate limits: Redis does not answer");
  });
  // A wrong REDIS_URL stops the start; a Redis slow to answer on a busy host gets a few seconds.
  for (let attempt = 1; ; attempt++) {
    try {
      await redis.ping();
      break;
    } catch (error) {
      if (attempt < STARTUP_ATTEMPTS) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        continue;
      }
      redis.disconnect();
      throw new Error(`REDIS_URL: Redis does not answer at ${new URL(redisUrl).host}`, { cause: error });
    }
  }
  const client = {
    scriptLoad: (script: string) => redis.script("LOAD", script) as Promise<string>,
    evalsha: <TArgs extends unknown[], TData = unknown>(sha: string, keys: string[], args: TArgs) =>
      redis.evalsha(sha, keys.length, ...keys, ...(args as (string | number)[])) as Promise<TData>,
    decr: (key: string) => redis.decr(key),
    del: (key: string) => redis.del(key),
  };
  return {
    kind: "redis",
    store: (name, { failOpen }) =>
      guarded(new RedisStore<AppEnv>({ client, prefix: `${options.redisKeyPrefix ?? ""}ratelimit:${name}:` }), {
        name,
        failOpen,
        logger,
      }),
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** The counters in PostgreSQL; a database that does not answer is a 503 database_unavailable for writes anyway. */
export function postgresLimitStores(pool: Db, logger: Logger): LimitStores {
  return {
    kind: "postgres",
    store: (name, { failOpen }) => guarded(new PostgresLimitStore(pool, name), { name, failOpen, logger }),
    close: async () => {},
  };
}

/** `store` with its failures handled as the limit wants (see above). */
function guarded(store: LimitStore, options: { name: string; failOpen: boolean; logger: Logger }): LimitStore {
  let lastWarning = 0;
  const failed = (error: unknown) => {
    countRateLimitStoreError(options.name);
    if (!options.failOpen) {
      if (store instanceof PostgresLimitStore) throw error;
      throw new ApiError(
        503,
        "rate_limits_unavailable",
        "the rate-limit counters do not answer; try again",
        undefined,
        {
          cause: error,
        },
      );
    }
    if (Date.now() - lastWarning >= 10_000) {
      lastWarning = Date.now();
      options.logger.warn(
        { err: error, limit: options.name },
        "rate limits: counters unreachable; requests pass uncounted",
      );
    }
  };
  return {
    localKeys: false,
    prefix: options.name,
    init: (config) => store.init?.(config),
    increment: async (key): Promise<ClientRateLimitInfo> => {
      try {
        return await store.increment(key);
      } catch (error) {
        failed(error);
        // Uncounted: no hit, no window (rateLimits.ts shows no numbers for it).
        return { totalHits: 0, resetTime: undefined };
      }
    },
    decrement: async (key) => {
      try {
        await store.decrement(key);
      } catch (error) {
        failed(error);
      }
    },
    resetKey: (key) => store.resetKey(key),
  };
}
