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
import { STREAM_CHANNEL, streamLogQueries } from "./db/streamLog";
import { observeStream } from "./http/metrics";
import { startStreamFeed } from "./stream/feed";
import { StreamHub } from "./stream/hub";

const config = loadConfig();
// Buffered writes: a log line per request must not cost a system call per request.
const logger = pino({ level: config.LOG_LEVEL }, pino.destination({ dest: 1, sync: false }));
await migrate(config.DATABASE_URL, logger);
const pool = createPool(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
const streamLog = streamLogQueries(pool, config.VIEWS_SCHEMA);
const stream = new StreamHub({
  log: streamLog,
  logger,
  pingMs: config.STREAM_PING_MS,
  maxBufferedBytes: config.STREAM_MAX_BUFFER_BYTES,
  pageSize: 1_000,
});
await stream.start();
observeStream(() => stream.stats);
const streamFeed = startStreamFeed({
  log: streamLog,
  logger,
  reorgDepth: config.STREAM_REORG_DEPTH,
  retentionMs: config.STREAM_RETENTION_HOURS * 3_600_000,
  onAppended: () => stream.pump(),
});
const indexerChanges = indexerChannel(config.VIEWS_SCHEMA);
const changes = listenForChanges({
  databaseUrl: config.DATABASE_URL,
  channels: [indexerChanges, API_CHANNEL, STREAM_CHANNEL],
  onChange: (channel, payload) => {
    if (channel === STREAM_CHANNEL) return stream.pump();
    // Ponder also notifies for blocks that wrote nothing ("[]"); those change no answer.
    if (payload !== "[]") cache?.clear();
    if (channel === indexerChanges) streamFeed.indexerChanged();
  },
  // Notifications may have been missed while the connection was down.
  onReset: () => {
    cache?.clear();
    streamFeed.indexerChanged();
    stream.pump();
  },
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
const app = createApp({ config, pool, logger, cache, chain, stream });
await reconcileSubmissions({ submissions: submissionQueries(pool, config.VIEWS_SCHEMA), bundlerUrl: config.BUNDLER_URL, logger });

const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
  logger.info({ url: `http://${config.HOST}:${info.port}`, docs: `http://${config.HOST}:${info.port}/docs` }, "API listening");
});

const shutdown = () => {
  logger.info("shutting down");
  // Open event streams would otherwise hold the server open.
  stream.close();
  streamFeed.close();
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
