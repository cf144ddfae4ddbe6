// The API's settings, from the environment, checked once at start.
import { z } from "zod";
import { TEST_NETWORK_CHAIN_ID } from "../constants";

/** At most `max` requests per `windowSeconds`. */
export type RateLimit = { max: number; windowSeconds: number };

const RATE_LIMIT = /^([1-9]\d{0,5})\/([1-9]\d{0,5})([smh])$/;
const WriteLimitSetting = z.string().regex(RATE_LIMIT, 'like "5/1h" (at most 5 per hour; the window in s, m or h)');
const ReadLimitSetting = z.string().refine((setting) => setting === "off" || RATE_LIMIT.test(setting), {
  message: 'like "12000/1m" (at most 12,000 per minute; the window in s, m or h), or off',
});

/** "5/1h" → 5 per 3,600 s. */
export function parseRateLimit(setting: string): RateLimit {
  const [, max, length, unit] = RATE_LIMIT.exec(setting)!;
  return { max: Number(max), windowSeconds: Number(length) * { s: 1, m: 60, h: 3600 }[unit as "s" | "m" | "h"] };
}

const Config = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("127.0.0.1"),
  DATABASE_URL: z.string().min(1, "DATABASE_URL is required"),
  /** Schema of Ponder's stable views. */
  VIEWS_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .default("app"),
  /** Ponder's operator endpoints, for /ready; optional. */
  INDEXER_URL: z.preprocess((value) => value || undefined, z.string().url().optional()),
  CHAIN_ID: z.coerce.number().int().default(TEST_NETWORK_CHAIN_ID),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).default(20),
  /** The chain, for wallets and writes; without it the API serves reads only. */
  RPC_URL: z.preprocess((value) => value || undefined, z.string().url().optional()),
  /** Where deployments/<chainId>.json is. */
  DEPLOYMENTS_DIR: z.preprocess((value) => value || undefined, z.string().optional()),
  /** Authentication: a JWKS (RS256/ES256) or, locally, a shared HS256 secret. */
  JWKS_URL: z.preprocess((value) => value || undefined, z.string().url().optional()),
  JWT_SECRET: z.preprocess(
    (value) => value || undefined,
    z.string().min(32, "must be at least 32 characters").optional(),
  ),
  JWT_ISSUER: z.preprocess((value) => value || undefined, z.string().optional()),
  JWT_AUDIENCE: z.preprocess((value) => value || undefined, z.string().optional()),
  /** 32 bytes as 0x-hex; every user's wallet owner key is derived from it. Keep it secret and stable. */
  WALLET_MASTER_KEY: z.preprocess(
    (value) => value || undefined,
    z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, "must be 32 bytes as 0x-hex")
      .optional(),
  ) as z.ZodType<`0x${string}` | undefined>,
  /** The operator: mints faucet USDC and operates markets. */
  OPERATOR_PRIVATE_KEY: z.preprocess(
    (value) => value || undefined,
    z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-hex private key")
      .optional(),
  ) as z.ZodType<`0x${string}` | undefined>,
  /** ERC-4337 bundler and the VerifyingPaymaster's signer, for trades. */
  BUNDLER_URL: z.preprocess((value) => value || undefined, z.string().url().optional()),
  PAYMASTER_SIGNER_KEY: z.preprocess(
    (value) => value || undefined,
    z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-hex private key")
      .optional(),
  ) as z.ZodType<`0x${string}` | undefined>,
  /** An ERC-7677 paymaster service; when set it sponsors instead of the local signer. */
  PAYMASTER_URL: z.preprocess((value) => value || undefined, z.string().url().optional()),
  FAUCET_ENABLED: z.preprocess((value) => value !== "false", z.boolean()),
  FAUCET_AMOUNT_USDC: z.coerce.number().positive().default(1000),
  FAUCET_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(3600),
  /** Largest request body accepted; a larger one is a 413. A market draft at its limits fits well within 64 KiB. */
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(64 * 1024),
  /** Longest a cached public read may live; changes clear it sooner. 0 turns the cache off. */
  READ_CACHE_TTL_MS: z.coerce.number().int().min(0).default(1000),
  /** The live stream: interval of `: ping` lines, how long events stay resumable, limits per process. */
  STREAM_PING_MS: z.coerce.number().int().min(10).default(15_000),
  STREAM_RETENTION_HOURS: z.coerce.number().positive().default(24),
  STREAM_MAX_CLIENTS: z.coerce.number().int().min(1).default(20_000),
  STREAM_MAX_BUFFER_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  STREAM_FANOUT_SLICE_MS: z.coerce.number().min(0).default(10),
  /**
   * Blocks of the trade table compared with what the stream announced: deeper than any reorg the
   * indexer follows (Ponder treats blocks older than 30 as final on this chain; 65 on mainnet).
   */
  STREAM_REORG_DEPTH: z.coerce.number().int().min(1).default(64),
  /** The journal: `false` switches posting off (reading stays); the longest post body in characters. */
  JOURNAL_LIVE: z.preprocess((value) => value !== "false", z.boolean()),
  JOURNAL_MAX_LEN: z.coerce.number().int().min(1).default(20_000),
  /** How often each API process writes the post views it counted (views elsewhere lag by this much). */
  JOURNAL_VIEW_FLUSH_MS: z.coerce.number().int().min(10).default(1_000),
  /** Writes per user across all API processes, as `<max>/<window>` with the window in s, m or h. */
  WRITE_LIMIT_POSTS: WriteLimitSetting.default("5/1h").transform(parseRateLimit),
  WRITE_LIMIT_COMMENTS: WriteLimitSetting.default("30/10m").transform(parseRateLimit),
  WRITE_LIMIT_TIPS: WriteLimitSetting.default("30/10m").transform(parseRateLimit),
  /** Buys, sells and claims, from the wallet or an agent's vault: a fast agent, not a runaway loop. */
  WRITE_LIMIT_TRADES: WriteLimitSetting.default("600/1m").transform(parseRateLimit),
  /** Registering an agent, opening or closing it, bonds and unbonds. */
  WRITE_LIMIT_AGENTS: WriteLimitSetting.default("60/10m").transform(parseRateLimit),
  /** Opening a wallet, the profile, and deleting one's own posts and comments. */
  WRITE_LIMIT_ACCOUNT: WriteLimitSetting.default("120/10m").transform(parseRateLimit),
  /** The admins' market drafts, activations and resolutions, and house-agent registrations. */
  WRITE_LIMIT_ADMIN: WriteLimitSetting.default("120/1m").transform(parseRateLimit),
  /** Faucet grants: per user on the wallet faucet, per client address on the payment network's. */
  WRITE_LIMIT_FAUCET: WriteLimitSetting.default("100/1h").transform(parseRateLimit),
  /**
   * Reads (GET and HEAD, the stream's connects included; not /health, /ready, /metrics) per client
   * address across all API processes, or `off`. One address may be an office behind NAT or a host
   * of agents, so the default stops a flood (a cached read serves thousands a second), not a busy client.
   */
  READ_LIMIT: ReadLimitSetting.default("12000/1m").transform((setting) =>
    setting === "off" ? undefined : parseRateLimit(setting),
  ),
  /**
   * Reverse proxies in front of the API that each append the address they were reached from to
   * X-Forwarded-For. 0: the client is the connection's peer and the header is ignored (anyone may
   * send one); n: the client is the n-th address from the header's end.
   */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /** Redis for the rate-limit counters (redis://host:port/db); unset, they live in PostgreSQL (api.write_limit). */
  REDIS_URL: z.preprocess((value) => value || undefined, z.string().url().optional()),
  /** Put before every Redis key, so that services (or test runs) sharing one Redis keep apart. */
  REDIS_KEY_PREFIX: z.string().default("pm:"),
  /**
   * On SIGTERM: how long requests in flight may take to finish before their connections are cut.
   * The process exits within a second and a half after, so the default stays within the 10 s an
   * orchestrator usually grants before SIGKILL.
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(8_000),
  /** Paid research: the payment network's JSON-RPC (eip155:5042002); without it the route answers 503. */
  PAYMENT_RPC_URL: z.preprocess((value) => value || undefined, z.string().url().optional()),
  /** Who receives research payments: the treasury's address on the payment network. */
  PAYMENT_PAY_TO: z.preprocess(
    (value) => value || undefined,
    z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x address")
      .optional(),
  ) as z.ZodType<`0x${string}` | undefined>,
  /** An external x402 facilitator; unset, the API verifies and settles itself with FACILITATOR_PRIVATE_KEY. */
  FACILITATOR_URL: z.preprocess((value) => value || undefined, z.string().url().optional()),
  FACILITATOR_PRIVATE_KEY: z.preprocess(
    (value) => value || undefined,
    z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-hex private key")
      .optional(),
  ) as z.ZodType<`0x${string}` | undefined>,
  /** A research answers by then with what it has (`partial: true`), well before the payment expires. */
  RESEARCH_DEADLINE_MS: z.coerce.number().int().min(100).max(100_000).default(55_000),
  /** A SearxNG instance to search the web with; none by default, so nothing leaves the machine. */
  SEARXNG_URL: z.preprocess((value) => value || undefined, z.string().url().optional()),
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
