// `npm run api`: the API service as a process, against DATABASE_URL.
import pino from "pino";
import { loadConfig } from "./config";
import { startApiService } from "./service";

const config = loadConfig();
// Buffered writes: a log line per request must not cost a system call per request.
const logger = pino({ level: config.LOG_LEVEL }, pino.destination({ dest: 1, sync: false }));
const service = await startApiService(config, logger);
logger.info({ url: service.url, docs: `${service.url}/docs`, node: process.version }, "API listening");

const shutdown = () => {
  logger.info("shutting down");
  setTimeout(() => process.exit(0), 5_000).unref();
  void service.close().then(() => {
    logger.flush();
    process.exit(0);
  });
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
