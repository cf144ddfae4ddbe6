// Liveness of the API processes sharing one database. Each process has a random id and refreshes
// its row every HEARTBEAT_MS; a process whose row is missing (stopped cleanly) or older than
// STALE_AFTER_MS (killed, or cut off from the database) is gone, and what it left unfinished may be
// settled by any other process. Times are the database's, so the processes' clocks do not matter.
import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Db } from "./pool";

/** This process's id: the owner stamped on the writes it records and the Idempotency-Keys it claims. */
export const THIS_PROCESS = randomUUID();

export const HEARTBEAT_MS = 2_000;
/** Five missed heartbeats: a process stalled this long (pool exhausted, event loop blocked) is taken for gone. */
export const STALE_AFTER_MS = 10_000;

/**
 * SQL that is true when the process named by `column` is gone: no owner (rows older than this
 * table), or an owner other than `self` (a parameter reference such as `$1`) that has not been seen
 * for STALE_AFTER_MS. A process never takes itself for gone.
 */
export const ownerIsGone = (column: string, self: string) =>
  `(${column} IS NULL OR (${column} <> ${self}::uuid AND NOT EXISTS (
     SELECT 1 FROM api.api_instance i
      WHERE i.id = ${column} AND i.seen_at > now() - interval '${STALE_AFTER_MS} milliseconds')))`;

export function instanceQueries(db: Db) {
  return {
    /** Says the process is alive; recreates its row if another process forgot it meanwhile. */
    async beat(id: string) {
      await db.query("INSERT INTO api.api_instance (id) VALUES ($1) ON CONFLICT (id) DO UPDATE SET seen_at = now()", [
        id,
      ]);
    },
    /** A process stopping cleanly: what it left is settled by the others at once. */
    async remove(id: string) {
      await db.query("DELETE FROM api.api_instance WHERE id = $1", [id]);
    },
    /** Rows of gone processes: a missing row means gone just as a stale one does. */
    async forgetGone() {
      await db.query(`DELETE FROM api.api_instance WHERE seen_at < now() - interval '${STALE_AFTER_MS} milliseconds'`);
    },
  };
}

/** Services of this process that are running: the row is removed only when the last one stops. */
let running = 0;

/**
 * Registers the process and refreshes its row every HEARTBEAT_MS on its own timer, so that a slow
 * pass of the write settler never makes a live process look gone. `stop` removes the row.
 */
export async function startHeartbeat(options: { pool: Db; logger: Logger; id?: string }) {
  const id = options.id ?? THIS_PROCESS;
  const instances = instanceQueries(options.pool);
  await instances.beat(id);
  if (id === THIS_PROCESS) running++;
  const timer = setInterval(() => {
    instances.beat(id).catch((error) => {
      // The database is down: no write of this process can progress either; beat again next time.
      options.logger.warn({ err: error }, "heartbeat not recorded");
    });
  }, HEARTBEAT_MS);
  timer.unref();
  return {
    id,
    stop: async () => {
      clearInterval(timer);
      if (id !== THIS_PROCESS || --running === 0) await instances.remove(id);
    },
  };
}
