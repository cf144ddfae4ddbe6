-- Up Migration
-- Every write the API sends to the chain, recorded before it is sent, so that a crash loses
-- nothing and the status route can answer for it.
CREATE TABLE submission (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('buy', 'sell', 'claim')),
  request jsonb NOT NULL,
  -- prepared: recorded, not yet accepted by the bundler; submitted: accepted (user_op_hash set);
  -- failed: refused by the bundler, reverted, dropped or expired. Confirmation is read from the
  -- indexer, never written here.
  state text NOT NULL CHECK (state IN ('prepared', 'submitted', 'failed')),
  user_op_hash text UNIQUE,
  tx_hash text,
  error text,
  response jsonb,
  -- After this the paymaster's signature has expired: a user operation not indexed by then never will be.
  valid_until timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX submission_user_idx ON submission (user_id, created_at DESC);
CREATE INDEX submission_open_idx ON submission (state) WHERE state IN ('prepared', 'submitted');

-- Down Migration
DROP TABLE submission;
