// The environment variables that `npm start` honours, as the README's "Environment variables" table
// lists them: one list here, which scripts/start.ts applies and the tests check against the README.

/** Read by `npm start` itself: where things go and which ports they take. */
export const START_VARIABLES = [
  "DATA_DIR",
  "DATABASE_URL",
  "EMBEDDED_DATABASE_PORT",
  "CHAIN_PORT",
  "PAYMENT_CHAIN_PORT",
  "BUNDLER_PORT",
  "BLOCK_TIME_MS",
  "INDEXER_PORT",
  "PORT",
  "VIEWS_SCHEMA",
  "DEPLOYMENTS_DIR",
  "OPERATOR_PRIVATE_KEY",
  "PAYMASTER_SIGNER_KEY",
  /** `off` leaves the house agents out. */
  "AGENTS",
] as const;

/**
 * Passed on to the API as given. When one is unset the API gets the local stack's value (its JWT
 * secret, issuer and audience, wallet master key, keys, bundler) or its own default.
 */
export const API_VARIABLES = [
  "HOST",
  "LOG_LEVEL",
  "DATABASE_POOL_SIZE",
  "MAX_BODY_BYTES",
  "JWKS_URL",
  "JWT_SECRET",
  "JWT_ISSUER",
  "JWT_AUDIENCE",
  "WALLET_MASTER_KEY",
  "OPERATOR_PRIVATE_KEY",
  "PAYMASTER_SIGNER_KEY",
  "BUNDLER_URL",
  "PAYMASTER_URL",
  "FAUCET_ENABLED",
  "FAUCET_AMOUNT_USDC",
  "FAUCET_INTERVAL_SECONDS",
  "READ_CACHE_TTL_MS",
  "STREAM_PING_MS",
  "STREAM_RETENTION_HOURS",
  "STREAM_MAX_CLIENTS",
  "STREAM_MAX_BUFFER_BYTES",
  "STREAM_FANOUT_SLICE_MS",
  "STREAM_REORG_DEPTH",
  "JOURNAL_LIVE",
  "JOURNAL_MAX_LEN",
  "JOURNAL_VIEW_FLUSH_MS",
  "WRITE_LIMIT_POSTS",
  "WRITE_LIMIT_COMMENTS",
  "WRITE_LIMIT_TIPS",
  "WRITE_LIMIT_TRADES",
  "WRITE_LIMIT_AGENTS",
  "WRITE_LIMIT_ACCOUNT",
  "WRITE_LIMIT_ADMIN",
  "WRITE_LIMIT_FAUCET",
  "READ_LIMIT",
  "TRUST_PROXY_HOPS",
  "REDIS_URL",
  "REDIS_KEY_PREFIX",
  "SHUTDOWN_DRAIN_MS",
  "PAYMENT_PAY_TO",
  "FACILITATOR_URL",
  "FACILITATOR_PRIVATE_KEY",
  "RESEARCH_DEADLINE_MS",
  "SEARXNG_URL",
] as const;

/** Passed on to the house agents' runner as given (agents/config.ts reads them). */
export const AGENT_VARIABLES = [
  "AGENTS_TICK_MS",
  "AGENTS_POST_INTERVAL_MS",
  "AGENTS_SEED_USDC",
  "AGENTS_METRICS_PORT",
  "AGENTS_PARAMS",
  "AGENTS_MARKETS",
] as const;

/** Passed on to Ponder as given. */
export const INDEXER_VARIABLES = ["POLLING_INTERVAL_MS", "PONDER_RPC_CACHE", "PONDER_LOG_LEVEL"] as const;

/**
 * Settings of the parts that `npm start` sets itself, from the parts it starts (a user's value
 * would point them at another chain, database or indexer); `npm run indexer`, `npm run api` and
 * `npm run agents` read them.
 */
export const WIRED_VARIABLES = [
  "RPC_URL",
  "WS_URL",
  "PAYMENT_RPC_URL",
  "CHAIN_ID",
  "INDEXER_URL",
  "DATABASE_SCHEMA",
  "PONDER_TELEMETRY_DISABLED",
  "API_URL",
  "AGENTS_ADMIN_TOKEN",
  "AGENT_TOKEN_MARKET_MAKER",
  "AGENT_TOKEN_MOMENTUM",
  "AGENT_TOKEN_CONTRARIAN",
] as const;

/** The given (non-empty) values of `names` in `env`. */
export function givenValues(names: readonly string[], env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(names.flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
}
