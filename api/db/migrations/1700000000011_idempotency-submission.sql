-- Up Migration
-- The submission a write sent under an Idempotency-Key prepared. A crash between the claim of the key
-- and its answer would leave the key "in progress" for a day; on the next start the reconciliation
-- settles it from this submission instead: the accepted answer is kept for replay, and a key whose
-- write sent nothing is freed for the client's retry.
ALTER TABLE idempotency_key ADD COLUMN submission_id uuid REFERENCES submission (id) ON DELETE SET NULL;
CREATE INDEX idempotency_key_open_idx ON idempotency_key (created_at) WHERE status IS NULL;

-- Down Migration
DROP INDEX idempotency_key_open_idx;
ALTER TABLE idempotency_key DROP COLUMN submission_id;
