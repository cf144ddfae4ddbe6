-- Up Migration
-- The API processes sharing this database, each with the last time it said it was alive. The
-- reconciliation of cut-off writes settles only what a process that is gone left behind: writes and
-- Idempotency-Keys of a live process are its own business, however long they take.
CREATE TABLE api_instance (
  id uuid PRIMARY KEY,
  started_at timestamptz NOT NULL DEFAULT now(),
  seen_at timestamptz NOT NULL DEFAULT now()
);
-- The process that recorded the write or claimed the key (null: recorded before instances were known,
-- settled by any process).
ALTER TABLE submission ADD COLUMN instance_id uuid;
ALTER TABLE idempotency_key ADD COLUMN instance_id uuid;

-- Down Migration
ALTER TABLE idempotency_key DROP COLUMN instance_id;
ALTER TABLE submission DROP COLUMN instance_id;
DROP TABLE api_instance;
