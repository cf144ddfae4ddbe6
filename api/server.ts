// `npm run api`: the API service on its own, against DATABASE_URL.
import { serve } from "@hono/node-server";
import pino from "pino";
import { readDeployment } from "../deployments/schema";
import { createApp } from "./app";
import { createChainAccess } from "./chain/access";
import { loadConfig } from "./config";
import { API_CHANNEL, indexerChannel, listenForChanges } from "./db/changes";
import { migrate } from "./db/migrate";
import { createPool } from "./db/pool";
import { ReadCache } from "./http/readCache";
import { reconcileSubmissions } from "./reconcile";
import { submissionQueries } from "./db/submissions";

const config = loadConfig();
// Buffered writes: a log line per request must not cost a system call per request.
const logger = pino({ level: config.LOG_LEVEL }, pino.destination({ dest: 1, sync: false }));
await migrate(config.DATABASE_URL, logger);
const pool = createPool(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
const changes = listenForChanges({
  databaseUrl: config.DATABASE_URL,
  channels: [indexerChannel(config.VIEWS_SCHEMA), API_CHANNEL],
  // Ponder also notifies for blocks that wrote nothing ("[]"); those change no answer.
  onChange: (_channel, payload) => {
    if (payload !== "[]") cache?.clear();
  },
  onReset: () => cache?.clear(),
  logger,
});
const cache =
  config.READ_CACHE_TTL_MS > 0
    ? new ReadCache({ ttlMs: config.READ_CACHE_TTL_MS, maxEntries: 10_000, enabled: () => changes.connected })
    : undefined;
const chain = config.RPC_URL
  ? createChainAccess({
      rpcUrl: config.RPC_URL,
      deployment: readDeployment(config.CHAIN_ID, config.DEPLOYMENTS_DIR),
      operatorKey: config.OPERATOR_PRIVATE_KEY,
    })
  : undefined;
const app = createApp({ config, pool, logger, cache, chain });
await reconcileSubmissions({ submissions: submissionQueries(pool, config.VIEWS_SCHEMA), bundlerUrl: config.BUNDLER_URL, logger });

const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
  logger.info({ url: `http://${config.HOST}:${info.port}`, docs: `http://${config.HOST}:${info.port}/docs` }, "API listening");
});

const shutdown = () => {
  logger.info("shutting down");
  server.close(() =>
    void Promise.all([pool.end(), changes.close()]).then(() => {
      logger.flush();
      process.exit(0);
    }),
  );
  setTimeout(() => process.exit(0), 5_000).unref();
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
