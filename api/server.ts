// `npm run api`: the API service as a process, against DATABASE_URL. SIGTERM (or SIGINT) drains it:
// no new connections, event streams ended with a reconnection hint, requests in flight finished
// (SHUTDOWN_DRAIN_MS at most), then the process exits, within SHUTDOWN_DRAIN_MS + 1.5 s in any case.
import pino from "pino";
import { loadConfig } from "./config";
import { startApiService } from "./service";

const config = loadConfig();
// Buffered writes: a log line per request must not cost a system call per request.
const logger = pino({ level: config.LOG_LEVEL }, pino.destination({ dest: 1, sync: false }));
const service = await startApiService(config, logger);
logger.info({ url: service.url, docs: `${service.url}/docs`, node: process.version }, "API listening");

const exit = (code: number) => logger.flush(() => process.exit(code));
let stopping = false;

const shutdown = (signal: NodeJS.Signals) => {
  // A second signal (npm start's own SIGTERM after a terminal's SIGINT) changes nothing.
  if (stopping) return;
  stopping = true;
  const started = performance.now();
  logger.info({ signal, drainMs: config.SHUTDOWN_DRAIN_MS }, "shutting down: draining requests in flight");
  setTimeout(() => {
    logger.error("shutting down took too long; exiting");
    exit(1);
  }, config.SHUTDOWN_DRAIN_MS + 1_500).unref();
  service.close().then(
    ({ cutConnections }) => {
      const ms = Math.round(performance.now() - started);
      if (cutConnections > 0) logger.warn({ ms, cutConnections }, "shut down; cut connections still busy");
      else logger.info({ ms }, "shut down");
      exit(0);
    },
    (error) => {
      logger.error({ err: error }, "shutting down failed");
      exit(1);
    },
  );
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
