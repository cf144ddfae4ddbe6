import type { StoredUserOperation } from "../chain/bundler";
import { ownerIsGone, THIS_PROCESS } from "./instances";
import type { Db } from "./pool";

/** The feature that sent a write: a lowercase label (`buy`, `tip`, `bond`, ...), open to new features. */
export type WriteKind = string;

export type SubmissionState = "prepared" | "submitted" | "failed";

export type SubmissionRow = {
  id: string;
  user_id: string;
  kind: WriteKind;
  request: unknown;
  state: SubmissionState;
  user_op_hash: string | null;
  tx_hash: string | null;
  error: string | null;
  response: unknown;
  valid_until: Date;
  created_at: Date;
};

/** A submission settled by a reconciliation while its process was still working on it: it must not be sent. */
export class SubmissionSettledError extends Error {
  constructor(id: string) {
    super(`submission ${id} was settled before it was sent (its process was taken for gone)`);
    this.name = "SubmissionSettledError";
  }
}

/** `instance`: the process recording writes (api/db/instances.ts); reconciliations leave a live one's writes alone. */
export function submissionQueries(db: Db, views: string, instance: string = THIS_PROCESS) {
  return {
    /**
     * Records a write about to be sent, owned by this process; its id names it until the operation
     * has a hash. The request's Idempotency-Key, if any, is linked to it in the same statement, so
     * that a crash never leaves a key whose write cannot be found.
     */
    async prepare(submission: {
      userId: string;
      kind: WriteKind;
      request: unknown;
      validUntilSeconds: number;
      idempotencyKey?: string;
    }): Promise<string> {
      const { rows } = await db.query<{ id: string }>(
        `WITH prepared AS (
           INSERT INTO api.submission (user_id, kind, request, state, valid_until, instance_id, views_schema)
           VALUES ($1, $2, $3, 'prepared', to_timestamp($4), $6, $7) RETURNING id
         ), linked AS (
           UPDATE api.idempotency_key SET submission_id = (SELECT id FROM prepared)
            WHERE user_id = $1 AND key = $5 AND status IS NULL
         )
         SELECT id FROM prepared`,
        [
          submission.userId,
          submission.kind,
          JSON.stringify(submission.request),
          submission.validUntilSeconds,
          submission.idempotencyKey ?? null,
          instance,
          views,
        ],
      );
      return rows[0]!.id;
    },

    /**
     * Names the operation about to be sent, with the answer its user will get and the signed
     * operation itself: after a crash, the bundler can be asked about it, a retry under the same
     * Idempotency-Key gets that answer, and an operation a bundler lost can be sent again.
     * Throws SubmissionSettledError, so that nothing is sent, when a reconciliation has settled the
     * submission meanwhile (this process was taken for gone): it may have freed the key for a retry.
     */
    async attach(id: string, userOpHash: string, response: unknown, operation: StoredUserOperation | null) {
      const { rowCount } = await db.query(
        "UPDATE api.submission SET user_op_hash = $2, response = $3, user_op = $4, updated_at = now() WHERE id = $1 AND state = 'prepared'",
        [id, userOpHash, JSON.stringify(response), operation && JSON.stringify(operation)],
      );
      if (rowCount === 0) throw new SubmissionSettledError(id);
    },

    /**
     * Accepted writes the indexer has not seen, still inside their sponsorship's validity, accepted
     * more than `settledForMs` ago, with their signed operation: the ones a bundler may have lost and
     * that can be sent again. (Without a stored operation, only the deadline settles a write.) Only
     * writes recorded by an API reading the same views: another deployment's bundler cannot judge them.
     */
    async unindexed(
      settledForMs: number,
    ): Promise<{ id: string; user_op_hash: string; user_op: StoredUserOperation }[]> {
      const { rows } = await db.query(
        `SELECT s.id, s.user_op_hash, s.user_op
           FROM api.submission s
          WHERE s.state = 'submitted' AND s.valid_until > now() AND s.user_op IS NOT NULL
            AND (s.views_schema IS NULL OR s.views_schema = $2)
            AND s.updated_at < now() - make_interval(secs => $1::double precision / 1000)
            AND NOT EXISTS (SELECT 1 FROM "${views}".user_operation u WHERE u.hash = s.user_op_hash)`,
        [settledForMs, views],
      );
      return rows;
    },

    /**
     * Submissions whose send was cut short: still `prepared`, their process gone, and recorded by an
     * API reading the same views (only this deployment's indexer and bundler can say if it was sent).
     */
    async unfinished(): Promise<{ id: string; user_op_hash: string | null; indexed: boolean }[]> {
      const { rows } = await db.query(
        `SELECT s.id, s.user_op_hash, u.hash IS NOT NULL AS indexed
           FROM api.submission s LEFT JOIN "${views}".user_operation u ON u.hash = s.user_op_hash
          WHERE s.state = 'prepared' AND (s.views_schema IS NULL OR s.views_schema = $2)
            AND ${ownerIsGone("s.instance_id", "$1")}`,
        [instance, views],
      );
      return rows;
    },

    async submitted(id: string, userOpHash: string, txHash: string | null, response: unknown) {
      await db.query(
        "UPDATE api.submission SET state = 'submitted', user_op_hash = $2, tx_hash = $3, response = $4, updated_at = now() WHERE id = $1",
        [id, userOpHash, txHash, JSON.stringify(response)],
      );
    },

    /**
     * A submission the reconciliation found with the bundler or the indexer: it keeps the answer
     * recorded when it was named, with the bundle transaction filled in when the bundler knows it.
     * Only a `prepared` one: another process's reconciliation may have settled it first.
     */
    async settleSubmitted(id: string, txHash: string | null) {
      await db.query(
        `UPDATE api.submission
            SET state = 'submitted', tx_hash = coalesce($2, tx_hash), updated_at = now(),
                response = CASE WHEN $2::text IS NOT NULL AND response ? 'txHash'
                                THEN jsonb_set(response, '{txHash}', to_jsonb($2::text)) ELSE response END
          WHERE id = $1 AND state = 'prepared'`,
        [id, txHash],
      );
    },

    /** A cut-off submission that sent nothing; only a `prepared` one, as for settleSubmitted. */
    async settleNotSent(id: string, error: string) {
      await db.query(
        "UPDATE api.submission SET state = 'failed', error = $2, updated_at = now() WHERE id = $1 AND state = 'prepared'",
        [id, error],
      );
    },

    async failed(id: string, error: string) {
      await db.query("UPDATE api.submission SET state = 'failed', error = $2, updated_at = now() WHERE id = $1", [
        id,
        error,
      ]);
    },

    /**
     * Those of the given user operation hashes whose write is decided: refused or settled as failed,
     * or indexed (confirmed or reverted). Expiry is left to the status itself.
     */
    async decidedOf(userOpHashes: string[]): Promise<Set<string>> {
      const { rows } = await db.query<{ user_op_hash: string }>(
        `SELECT s.user_op_hash
           FROM api.submission s
          WHERE s.user_op_hash = ANY($1)
            AND (s.state = 'failed' OR EXISTS (SELECT 1 FROM "${views}".user_operation u WHERE u.hash = s.user_op_hash))`,
        [userOpHashes],
      );
      return new Set(rows.map((row) => row.user_op_hash));
    },

    /** The caller's submission by user operation hash, with what the indexer knows of it. */
    async statusOf(userId: string, userOpHash: string) {
      const { rows } = await db.query(
        `SELECT s.state, s.tx_hash, s.error, s.valid_until, s.kind,
                u.success, u.block_number::text AS block_number, u.timestamp::text AS timestamp, u.tx_hash AS indexed_tx_hash,
                u.revert_reason
           FROM api.submission s
           LEFT JOIN "${views}".user_operation u ON u.hash = s.user_op_hash
          WHERE s.user_id = $1 AND s.user_op_hash = $2`,
        [userId, userOpHash.toLowerCase()],
      );
      return rows[0] as SubmissionStatusRow | undefined;
    },
  };
}

/** A submission with what the indexer knows of its user operation (null columns: not indexed yet). */
export type SubmissionStatusRow = {
  state: SubmissionState;
  tx_hash: string | null;
  error: string | null;
  valid_until: Date;
  kind: WriteKind;
  success: boolean | null;
  block_number: string | null;
  timestamp: string | null;
  indexed_tx_hash: string | null;
  revert_reason: string | null;
};
