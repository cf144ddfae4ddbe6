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
  /** The chain, for wallets and writes; without it the API serves reads only. */
  RPC_URL: z.preprocess((value) => value || undefined, z.string().url().optional()),
  /** Where deployments/<chainId>.json is. */
  DEPLOYMENTS_DIR: z.preprocess((value) => value || undefined, z.string().optional()),
  /** Authentication: a JWKS (RS256/ES256) or, locally, a shared HS256 secret. */
  JWKS_URL: z.preprocess((value) => value || undefined, z.string().url().optional()),
  JWT_SECRET: z.preprocess((value) => value || undefined, z.string().min(32, "must be at least 32 characters").optional()),
  JWT_ISSUER: z.preprocess((value) => value || undefined, z.string().optional()),
  JWT_AUDIENCE: z.preprocess((value) => value || undefined, z.string().optional()),
  /** 32 bytes as 0x-hex; every user's wallet owner key is derived from it. Keep it secret and stable. */
  WALLET_MASTER_KEY: z.preprocess(
    (value) => value || undefined,
    z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be 32 bytes as 0x-hex").optional(),
  ) as z.ZodType<`0x${string}` | undefined>,
  /** The operator: mints faucet USDC and operates markets. */
  OPERATOR_PRIVATE_KEY: z.preprocess(
    (value) => value || undefined,
    z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-hex private key").optional(),
  ) as z.ZodType<`0x${string}` | undefined>,
  /** ERC-4337 bundler and the VerifyingPaymaster's signer, for trades. */
  BUNDLER_URL: z.preprocess((value) => value || undefined, z.string().url().optional()),
  PAYMASTER_SIGNER_KEY: z.preprocess(
    (value) => value || undefined,
    z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-hex private key").optional(),
  ) as z.ZodType<`0x${string}` | undefined>,
  /** An ERC-7677 paymaster service; when set it sponsors instead of the local signer. */
  PAYMASTER_URL: z.preprocess((value) => value || undefined, z.string().url().optional()),
  FAUCET_ENABLED: z.preprocess((value) => value !== "false", z.boolean()),
  FAUCET_AMOUNT_USDC: z.coerce.number().positive().default(1000),
  FAUCET_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(3600),
  /** Longest a cached public read may live; changes clear it sooner. 0 turns the cache off. */
  READ_CACHE_TTL_MS: z.coerce.number().int().min(0).default(1000),
  /** The live stream: interval of `: ping` lines, how long events stay resumable, limits per process. */
  STREAM_PING_MS: z.coerce.number().int().min(10).default(15_000),
  STREAM_RETENTION_HOURS: z.coerce.number().positive().default(24),
  STREAM_MAX_CLIENTS: z.coerce.number().int().min(1).default(20_000),
  STREAM_MAX_BUFFER_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  STREAM_FANOUT_SLICE_MS: z.coerce.number().min(0).default(10),
  /**
   * Blocks of the trade table compared with what the stream announced: deeper than any reorg the
   * indexer follows (Ponder treats blocks older than 30 as final on this chain; 65 on mainnet).
   */
  STREAM_REORG_DEPTH: z.coerce.number().int().min(1).default(64),
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
