// The OpenAPI document as the app serves it, built in-process: describing routes runs no query, so
// the pool never connects.
import pino from "pino";
import { createApp, OPENAPI_PATH } from "../app";
import { loadConfig } from "../config";
import { createPool } from "../db/pool";

export async function openApiDocument(): Promise<Record<string, unknown>> {
  const logger = pino({ level: "silent" });
  const config = loadConfig({ DATABASE_URL: "postgres://unused@127.0.0.1:1/unused" });
  const pool = createPool({ databaseUrl: config.DATABASE_URL, max: 1, logger });
  try {
    return (await (await createApp({ config, pool, logger }).request(OPENAPI_PATH)).json()) as Record<string, unknown>;
  } finally {
    await pool.end();
  }
}
