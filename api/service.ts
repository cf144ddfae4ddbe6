// The API service: migrations, the database pool, the change listener, the live stream and the
// HTTP server, started and stopped as one. `api/server.ts` runs it as a process; tests may run it
// in their own.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Logger } from "pino";
import { readDeployment } from "../deployments/schema";
import { createApp } from "./app";
import { createChainAccess } from "./chain/access";
import type { Config } from "./config";
import { API_CHANNEL, indexerChannel, listenForChanges } from "./db/changes";
import { idempotencyQueries } from "./db/idempotency";
import { instanceQueries, startHeartbeat } from "./db/instances";
import { migrate } from "./db/migrate";
import { createPool } from "./db/pool";
import { postQueries } from "./db/posts";
import { STREAM_CHANNEL, streamLogQueries } from "./db/streamLog";
import { submissionQueries } from "./db/submissions";
import { answerClientErrors } from "./http/clientErrors";
import { drain } from "./http/drain";
import { createLimitStores } from "./http/limitStores";
import { observeFanout, observeStream, observeStreamDelay } from "./http/metrics";
import { ReadCache } from "./http/readCache";
import { ViewCounter } from "./journal/viewCounter";
import { startStreamFeed } from "./stream/feed";
import { StreamHub } from "./stream/hub";
import { reconcileSubmissions } from "./writes/reconcile";
import { startWriteSettler } from "./writes/settle";
import { StatusWaiters } from "./writes/statusWaiters";

export type ApiService = {
  url: string;
  stream: StreamHub;
  /**
   * Stops accepting, ends the event streams with a reconnection hint, lets requests in flight
   * finish (SHUTDOWN_DRAIN_MS at most, then cuts their connections) and releases the rest.
   */
  close: () => Promise<{ cutConnections: number }>;
};

/** The base of the delay a stream client is told to wait before reconnecting when this process stops. */
const SHUTDOWN_RETRY_MS = 1_000;
/**
 * How often writes waited on are checked without a notice: settling a write as failed (refused,
 * lost) notifies nobody, and a notice may come between a request's first read and its wait.
 */
const STATUS_FALLBACK_MS = 250;

export async function startApiService(config: Config, logger: Logger): Promise<ApiService> {
  await migrate(config.DATABASE_URL, logger);
  const pool = createPool({ databaseUrl: config.DATABASE_URL, max: config.DATABASE_POOL_SIZE, logger });
  const streamLog = streamLogQueries(pool, config.VIEWS_SCHEMA);
  const stream = new StreamHub({
    log: streamLog,
    logger,
    pingMs: config.STREAM_PING_MS,
    maxBufferedBytes: config.STREAM_MAX_BUFFER_BYTES,
    pageSize: 1_000,
    fanoutSliceMs: config.STREAM_FANOUT_SLICE_MS,
    onFanout: observeFanout,
    onDelay: observeStreamDelay,
  });
  await stream.start();
  observeStream(() => stream.stats);
  const streamFeed = startStreamFeed({
    log: streamLog,
    logger,
    reorgDepth: config.STREAM_REORG_DEPTH,
    retentionMs: config.STREAM_RETENTION_HOURS * 3_600_000,
    onAppended: (announcedAt) => stream.pump(announcedAt),
  });
  const cache =
    config.READ_CACHE_TTL_MS > 0
      ? new ReadCache({ ttlMs: config.READ_CACHE_TTL_MS, maxEntries: 10_000, enabled: () => changes.connected })
      : undefined;
  const statusWaiters = new StatusWaiters({
    decidedOf: submissionQueries(pool, config.VIEWS_SCHEMA).decidedOf,
    fallbackMs: STATUS_FALLBACK_MS,
    onError: (error) =>
      logger.warn({ err: error }, "waited write statuses not checked; checked again on the next change"),
  });
  const indexerChanges = indexerChannel(config.VIEWS_SCHEMA);
  const changes = listenForChanges({
    databaseUrl: config.DATABASE_URL,
    channels: [indexerChanges, API_CHANNEL, STREAM_CHANNEL],
    onChange: (channel, payload) => {
      if (channel === STREAM_CHANNEL) return stream.pump();
      // Ponder also notifies for blocks that wrote nothing ("[]"); those change no answer.
      if (payload !== "[]") {
        cache?.clear();
        statusWaiters.changed();
      }
      if (channel === indexerChanges) streamFeed.indexerChanged();
    },
    // Notifications may have been missed while the connection was down.
    onReset: () => {
      cache?.clear();
      streamFeed.indexerChanged();
      stream.pump();
      statusWaiters.changed();
    },
    logger,
  });
  const chain = config.RPC_URL
    ? createChainAccess({
        rpcUrl: config.RPC_URL,
        deployment: readDeployment(config.CHAIN_ID, config.DEPLOYMENTS_DIR),
        operatorKey: config.OPERATOR_PRIVATE_KEY,
      })
    : undefined;
  const postViews = new ViewCounter({
    flushMs: config.JOURNAL_VIEW_FLUSH_MS,
    write: (counts) => postQueries(pool, config.VIEWS_SCHEMA).addViews(counts),
    // A cached post carries the stored count; with this process's views now in it, that is stale.
    onWritten: () => cache?.clear(),
    onError: (error) => logger.warn({ err: error }, "post views not written; kept for the next flush"),
  });
  postViews.start();
  const limits = await createLimitStores({
    pool,
    redisUrl: config.REDIS_URL,
    redisKeyPrefix: config.REDIS_KEY_PREFIX,
    logger,
  });
  const app = createApp({ config, pool, logger, cache, chain, stream, postViews, limits, statusWaiters });
  // Alive before anything is reconciled or accepted: other processes must leave this one's writes alone.
  const heartbeat = await startHeartbeat({ pool, logger });
  const reconcile = () =>
    reconcileSubmissions({
      submissions: submissionQueries(pool, config.VIEWS_SCHEMA),
      idempotency: idempotencyQueries(pool),
      instances: instanceQueries(pool),
      bundlerUrl: config.BUNDLER_URL,
      logger,
    });
  await reconcile();
  const writeSettler = startWriteSettler({
    submissions: submissionQueries(pool, config.VIEWS_SCHEMA),
    reconcile,
    bundlerUrl: config.BUNDLER_URL,
    publicClient: chain?.publicClient,
    logger,
  });

  const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }) as Server;
  answerClientErrors(server);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const url = `http://${config.HOST}:${(server.address() as AddressInfo).port}`;

  return {
    url,
    stream,
    async close() {
      // Open event streams would otherwise hold the server open until the drain cuts them.
      stream.close(SHUTDOWN_RETRY_MS);
      streamFeed.close();
      // Held status requests answer now (still `pending`) instead of holding the drain up.
      statusWaiters.releaseAll();
      const { cut } = await drain(server, config.SHUTDOWN_DRAIN_MS);
      await postViews.stop();
      await writeSettler.stop();
      // Gone: other processes settle at once whatever a cut request of this one left unfinished.
      await heartbeat.stop().catch((error) => logger.warn({ err: error }, "instance row not removed; it goes stale"));
      await Promise.all([pool.end(), changes.close(), limits.close()]);
      return { cutConnections: cut };
    },
  };
}
