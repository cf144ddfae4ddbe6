// The API's settings, from the environment, checked once at start.
import { z } from "zod";

const Config = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("127.0.0.1"),
  DATABASE_URL: z.string().min(1, "DATABASE_URL is required"),
  /** Schema of Ponder's stable views. */
  VIEWS_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]*$/).default("app"),
  /** Ponder's operator endpoints, for /ready; optional. */
  INDEXER_URL: z.preprocess((value) => value || undefined, z.string().url().optional()),
  CHAIN_ID: z.coerce.number().int().default(2010111),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).default(20),
  /** Longest a cached public read may live; changes clear it sooner. 0 turns the cache off. */
  READ_CACHE_TTL_MS: z.coerce.number().int().min(0).default(1000),
});

export type Config = z.infer<typeof Config>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = Config.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
    throw new Error(`invalid configuration: ${problems}`);
  }
  return parsed.data;
}
