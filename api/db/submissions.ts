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

export function submissionQueries(db: Db, views: string) {
  return {
    /** Records a write about to be sent; its id names it until the operation has a hash. */
    async prepare(submission: {
      userId: string;
      kind: WriteKind;
      request: unknown;
      validUntilSeconds: number;
    }): Promise<string> {
      const { rows } = await db.query<{ id: string }>(
        "INSERT INTO api.submission (user_id, kind, request, state, valid_until) VALUES ($1, $2, $3, 'prepared', to_timestamp($4)) RETURNING id",
        [submission.userId, submission.kind, JSON.stringify(submission.request), submission.validUntilSeconds],
      );
      return rows[0]!.id;
    },

    /** Names the operation about to be sent: after a crash, the bundler can be asked about it. */
    async attach(id: string, userOpHash: string) {
      await db.query(
        "UPDATE api.submission SET user_op_hash = $2, updated_at = now() WHERE id = $1 AND state = 'prepared'",
        [id, userOpHash],
      );
    },

    /** Submissions whose send may have been cut short by a crash. */
    async unfinished(): Promise<{ id: string; user_op_hash: string | null; indexed: boolean }[]> {
      const { rows } = await db.query(
        `SELECT s.id, s.user_op_hash, u.hash IS NOT NULL AS indexed
           FROM api.submission s LEFT JOIN "${views}".user_operation u ON u.hash = s.user_op_hash
          WHERE s.state = 'prepared'`,
      );
      return rows;
    },

    async submitted(id: string, userOpHash: string, txHash: string | null, response: unknown) {
      await db.query(
        "UPDATE api.submission SET state = 'submitted', user_op_hash = $2, tx_hash = $3, response = $4, updated_at = now() WHERE id = $1",
        [id, userOpHash, txHash, JSON.stringify(response)],
      );
    },

    async failed(id: string, error: string) {
      await db.query("UPDATE api.submission SET state = 'failed', error = $2, updated_at = now() WHERE id = $1", [
        id,
        error,
      ]);
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
