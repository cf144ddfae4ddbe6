-- Up Migration
-- The first answer to a write sent with an Idempotency-Key, kept for a day and replayed to any
-- repeat of the same request by the same user.
CREATE TABLE idempotency_key (
  user_id text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  -- null while the first request is still being answered
  status integer,
  response text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, key)
);

-- Down Migration
DROP TABLE idempotency_key;
