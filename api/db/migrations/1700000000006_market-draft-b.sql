-- Up Migration
-- The LMSR parameter is `b` in every layer; `liquidity` means the USDC a market holds.
ALTER TABLE market_draft RENAME COLUMN liquidity TO b;

-- Down Migration
ALTER TABLE market_draft RENAME COLUMN b TO liquidity;
