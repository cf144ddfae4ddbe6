import pg from "pg";
import type { Logger } from "pino";

// Ponder stores bigint arrays as numeric(78)[], which pg would parse as floats; read them as
// exact bigints, as Ponder does.
const NUMERIC_ARRAY = 1231 as unknown as Parameters<typeof pg.types.setTypeParser>[0];
const INT8_ARRAY = 1016 as unknown as Parameters<typeof pg.types.setTypeParser>[0];
pg.types.setTypeParser(NUMERIC_ARRAY, pg.types.getTypeParser(INT8_ARRAY));

export type Db = pg.Pool;

/** How long a request waits for a connection while the database is unreachable, before its 503. */
const CONNECT_TIMEOUT_MS = 3_000;

/**
 * A pool that rides out a database restart: an idle connection that the server ends emits
 * `'error'` on the pool, which would otherwise end the process; the pool drops that connection and
 * opens new ones once the server is back, while requests meanwhile fail fast (503).
 */
export function createPool(options: { databaseUrl: string; max: number; logger: Logger }): Db {
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.max,
    application_name: "prediction-market-api",
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  pool.on("error", (error) =>
    options.logger.warn({ err: error }, "database connection lost; it is replaced on next use"),
  );
  return pool;
}

/**
 * Runs `work` on one connection of the pool (a transaction, a snapshot) and gives it back. While
 * it is checked out, the pool no longer listens to a connection's `'error'`: a server that ends it
 * then (a restart) would end the process. The query in flight fails anyway, and a connection that
 * failed is discarded rather than returned.
 */
export async function withClient<T>(db: Db, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await db.connect();
  let failure: Error | undefined;
  const onError = (error: Error) => {
    failure = error;
  };
  client.on("error", onError);
  try {
    return await work(client);
  } catch (error) {
    failure ??= error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.off("error", onError);
    client.release(failure);
  }
}
