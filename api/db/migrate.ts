// The API's own schema `api`, migrated by node-pg-migrate from the SQL files beside this one.
import { join } from "node:path";
import { runner } from "node-pg-migrate";
import type { Logger } from "pino";

export async function migrate(databaseUrl: string, logger: Logger): Promise<void> {
  await runner({
    databaseUrl,
    dir: join(import.meta.dirname, "migrations"),
    direction: "up",
    schema: "api",
    createSchema: true,
    migrationsSchema: "api",
    migrationsTable: "migrations",
    // Several API instances may start at once; node-pg-migrate serialises them with an advisory lock.
    noLock: false,
    log: (message) => logger.debug(message),
    verbose: false,
  });
}
