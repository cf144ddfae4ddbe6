// The database of the local stack: DATABASE_URL when given, otherwise an embedded PostgreSQL whose
// data lives in a git-ignored folder of the project and survives restarts.
import { join } from "node:path";
import pg from "pg";
import { type EmbeddedPostgres, SUPERUSER, startEmbeddedPostgres } from "./postgres";
import type { Child } from "./processes";

export type Database = {
  url: string;
  /** The embedded server, to stop and start again; absent with DATABASE_URL. */
  embedded?: EmbeddedPostgres;
};

const DATABASE_NAME = "prediction_market";

export async function startDatabase(options: {
  url?: string;
  dataDir: string;
  port: number;
  logDir: string;
  onSpawn?: (child: Child) => void;
}): Promise<Database> {
  if (options.url) return { url: options.url };
  const embedded = await startEmbeddedPostgres({
    dataDir: options.dataDir,
    port: options.port,
    logFile: join(options.logDir, "postgres.log"),
    onSpawn: options.onSpawn,
  });
  const server = `postgres://${SUPERUSER.user}:${SUPERUSER.password}@127.0.0.1:${options.port}`;
  const client = new pg.Client(`${server}/postgres`);
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [DATABASE_NAME]);
    if (rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE_NAME}`);
  } finally {
    await client.end();
  }
  return { url: `${server}/${DATABASE_NAME}`, embedded };
}

/**
 * Drops the indexer schemas of earlier local deploys (`pm_...`): each `npm start` brings a fresh
 * chain, so their data describes a chain that no longer exists. Only for the embedded database.
 */
export async function dropEarlierIndexerSchemas(url: string): Promise<void> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      "SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE 'pm\\_%'",
    );
    for (const { name } of rows) await client.query(`DROP SCHEMA "${name}" CASCADE`);
  } finally {
    await client.end();
  }
}
