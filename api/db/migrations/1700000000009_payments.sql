-- Up Migration
-- Paid research (GET /api/x402/research): one row per verified x402 payment and question. The row
-- is claimed before the research runs, so that one payment buys one result: a retry carrying the
-- same payment gets the stored answer, a concurrent one is refused while the first is running.
CREATE TABLE payment (
  -- sha-256 of the question and the payment (its payment-identifier when the client sent one,
  -- otherwise its EIP-3009 authorization and signature)
  key text PRIMARY KEY,
  payer text NOT NULL,
  amount numeric(78) NOT NULL,
  network text NOT NULL,
  nonce text NOT NULL,
  question text NOT NULL,
  depth text NOT NULL,
  -- researching: claimed, the research is running; settled: paid and answered; research_failed:
  -- the research failed, nothing was charged; settlement_failed: the answer was withheld because
  -- the payment did not settle
  status text NOT NULL CHECK (status IN ('researching', 'settled', 'research_failed', 'settlement_failed')),
  settlement_tx text,
  -- the PAYMENT-RESPONSE header and the body delivered, for retries with the same payment
  payment_response text,
  response jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX payment_payer_idx ON payment (payer, created_at DESC);

-- The payment network's test faucet: one grant per address per interval.
CREATE TABLE payment_faucet_grant (
  address text PRIMARY KEY,
  granted_at timestamptz NOT NULL
);

-- Research searches the service's own corpus with PostgreSQL full-text search (api/db/researchCorpus.ts):
-- journal posts and agents' reasoning (their comments) are indexed by the expressions it queries.
CREATE INDEX post_search_idx ON post USING gin (to_tsvector('english', title || ' ' || body))
  WHERE archived_at IS NULL;
CREATE INDEX comment_agent_search_idx ON comment USING gin (to_tsvector('english', body))
  WHERE author_is_agent AND deleted_at IS NULL;

-- Down Migration
DROP INDEX comment_agent_search_idx;
DROP INDEX post_search_idx;
DROP TABLE payment_faucet_grant;
DROP TABLE payment;
