import { ownerIsGone, THIS_PROCESS } from "./instances";
import type { Db } from "./pool";

export type Claim =
  | { kind: "first" }
  | { kind: "replay"; status: number; response: string }
  | { kind: "in_progress" }
  | { kind: "mismatch" };

const RETENTION = "24 hours";

/** `instance`: the process claiming keys (api/db/instances.ts); reconciliations leave a live one's keys alone. */
export function idempotencyQueries(db: Db, instance: string = THIS_PROCESS) {
  return {
    /** Claims the key for this request, owned by this process, or reports what an earlier request with it did. */
    async claim(userId: string, key: string, requestHash: string): Promise<Claim> {
      await db.query(
        `DELETE FROM api.idempotency_key WHERE user_id = $1 AND key = $2 AND created_at < now() - interval '${RETENTION}'`,
        [userId, key],
      );
      const inserted = await db.query(
        "INSERT INTO api.idempotency_key (user_id, key, request_hash, instance_id) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
        [userId, key, requestHash, instance],
      );
      if (inserted.rowCount === 1) return { kind: "first" };
      const { rows } = await db.query(
        "SELECT request_hash, status, response FROM api.idempotency_key WHERE user_id = $1 AND key = $2",
        [userId, key],
      );
      const row = rows[0];
      if (!row) return this.claim(userId, key, requestHash);
      if (row.request_hash !== requestHash) return { kind: "mismatch" };
      if (row.status === null) return { kind: "in_progress" };
      return { kind: "replay", status: row.status, response: row.response };
    },

    async complete(userId: string, key: string, status: number, response: string) {
      await db.query("UPDATE api.idempotency_key SET status = $3, response = $4 WHERE user_id = $1 AND key = $2", [
        userId,
        key,
        status,
        response,
      ]);
    },

    /**
     * Settles the keys whose requests were cut short by the end of the process that claimed them,
     * once their submissions are settled. A key whose write was accepted replays the answer recorded
     * with it (sponsored writes answer 200); a key whose write sent nothing (failed, or never
     * prepared) is freed for the client's retry. A key whose submission is still unsettled stays in
     * progress, and so does every key of a live process.
     */
    async settleCutShort(): Promise<{ replayed: number; released: number }> {
      const replayed = await db.query(
        `UPDATE api.idempotency_key k SET status = 200, response = s.response::text
           FROM api.submission s
          WHERE k.status IS NULL AND s.id = k.submission_id AND s.state = 'submitted' AND s.response IS NOT NULL
            AND ${ownerIsGone("k.instance_id", "$1")}`,
        [instance],
      );
      const released = await db.query(
        `DELETE FROM api.idempotency_key k
          WHERE k.status IS NULL AND ${ownerIsGone("k.instance_id", "$1")}
            AND (k.submission_id IS NULL
                 OR EXISTS (SELECT 1 FROM api.submission s WHERE s.id = k.submission_id AND s.state = 'failed'))`,
        [instance],
      );
      return { replayed: replayed.rowCount ?? 0, released: released.rowCount ?? 0 };
    },

    /** A request that failed before it changed anything releases its key for a retry. */
    async release(userId: string, key: string) {
      await db.query("DELETE FROM api.idempotency_key WHERE user_id = $1 AND key = $2 AND status IS NULL", [
        userId,
        key,
      ]);
    },
  };
}
