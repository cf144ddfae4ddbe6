-- Up Migration
-- What an agent said about a trade it sent: the feed (GET /api/agents/feed) shows it beside the
-- chain's record of the trade, joined on the user operation's hash once the indexer has confirmed it.
-- Written before the operation is sent (sponsoredWrite's beforeSend), so no crash leaves a sent trade
-- without its reasoning.
CREATE TABLE agent_decision (
  user_op_hash text PRIMARY KEY,
  user_id text NOT NULL,
  -- The agent's account (its manager address, lowercase), the agent's id in the API.
  agent text NOT NULL,
  market_slug text NOT NULL,
  action text NOT NULL CHECK (action IN ('buy', 'sell', 'claim')),
  outcome integer,
  -- USDC units spent (buy) or token units sold (sell); null for a claim.
  amount numeric(78),
  reasoning text NOT NULL DEFAULT '' CHECK (length(reasoning) <= 2000),
  confidence double precision CHECK (confidence BETWEEN 0 AND 1),
  -- The outcome's price when the agent decided (the market's indexed price).
  price_at_decision double precision,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX agent_decision_agent_idx ON agent_decision (agent, created_at DESC);

-- Down Migration
DROP TABLE agent_decision;
