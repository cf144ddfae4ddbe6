-- Up Migration
CREATE TABLE market_draft (
  slug text PRIMARY KEY CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  -- keccak256(slug): the same id before and after activation.
  id text NOT NULL UNIQUE,
  title text NOT NULL,
  description text NOT NULL,
  outcomes text[] NOT NULL CHECK (cardinality(outcomes) BETWEEN 2 AND 8),
  closes_at timestamptz NOT NULL,
  -- LMSR liquidity parameter b and the fee, as the factory takes them (6-decimal USDC units).
  liquidity numeric(78) NOT NULL,
  fee_bps integer NOT NULL CHECK (fee_bps BETWEEN 0 AND 1000),
  -- Where the CREATE2 deployment will put the contract.
  contract_address text,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX market_draft_created_idx ON market_draft (created_at DESC);

-- Down Migration
DROP TABLE market_draft;
