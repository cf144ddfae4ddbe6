import type { Db } from "./pool";

export type Claim =
  | { kind: "first" }
  | { kind: "replay"; status: number; response: string }
  | { kind: "in_progress" }
  | { kind: "mismatch" };

const RETENTION = "24 hours";

export function idempotencyQueries(db: Db) {
  return {
    /** Claims the key for this request, or reports what an earlier request with it did. */
    async claim(userId: string, key: string, requestHash: string): Promise<Claim> {
      await db.query(
        `DELETE FROM api.idempotency_key WHERE user_id = $1 AND key = $2 AND created_at < now() - interval '${RETENTION}'`,
        [userId, key],
      );
      const inserted = await db.query(
        "INSERT INTO api.idempotency_key (user_id, key, request_hash) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        [userId, key, requestHash],
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

    /** A request that failed before it changed anything releases its key for a retry. */
    async release(userId: string, key: string) {
      await db.query("DELETE FROM api.idempotency_key WHERE user_id = $1 AND key = $2 AND status IS NULL", [
        userId,
        key,
      ]);
    },
  };
}
