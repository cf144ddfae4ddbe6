-- Up Migration
CREATE TABLE wallet (
  wallet_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id text NOT NULL UNIQUE,
  -- The SimpleAccount's counterfactual address; the first user operation deploys it.
  address text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE faucet_grant (
  id bigserial PRIMARY KEY,
  user_id text NOT NULL,
  amount numeric(78) NOT NULL,
  tx_hash text NOT NULL,
  granted_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX faucet_grant_user_idx ON faucet_grant (user_id, granted_at DESC);

-- Down Migration
DROP TABLE faucet_grant;
DROP TABLE wallet;
