-- Up Migration
-- The signed user operation of a submission, as the bundler's RPC takes it. A bundler that restarts
-- loses its mempool: an operation it had accepted but not yet bundled is then sent again from here
-- (the EntryPoint's nonce makes a second inclusion impossible), so an accepted write is not lost.
ALTER TABLE submission ADD COLUMN user_op jsonb;
-- Accepted writes still inside their sponsorship's validity: the ones the settler watches.
CREATE INDEX submission_live_idx ON submission (valid_until) WHERE state = 'submitted';

-- Down Migration
DROP INDEX submission_live_idx;
ALTER TABLE submission DROP COLUMN user_op;
