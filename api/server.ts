// `npm run api`: the API service on its own, against DATABASE_URL.
import { serve } from "@hono/node-server";
import pino from "pino";
import { createApp } from "./app";
import { loadConfig } from "./config";
import { migrate } from "./db/migrate";
import { createPool } from "./db/pool";

const config = loadConfig();
const logger = pino({ level: config.LOG_LEVEL });
await migrate(config.DATABASE_URL, logger);
const pool = createPool(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
const app = createApp({ config, pool, logger });

const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
  logger.info({ url: `http://${config.HOST}:${info.port}`, docs: `http://${config.HOST}:${info.port}/docs` }, "API listening");
});

const shutdown = () => {
  logger.info("shutting down");
  server.close(() => void pool.end().then(() => process.exit(0)));
  setTimeout(() => process.exit(0), 5_000).unref();
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
