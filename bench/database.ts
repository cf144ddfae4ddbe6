// Leaving a shared database (DATABASE_URL) as a benchmark found it.
import pg from "pg";
import type { Stack } from "../scripts/stack";

/** Drops the schemas a benchmark created; the embedded database goes away with its folder anyway. */
export async function dropSchemas(stack: Stack, schemas: string[]) {
  if (stack.databaseEmbedded) return;
  const client = new pg.Client(stack.databaseUrl);
  await client.connect();
  for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
}
