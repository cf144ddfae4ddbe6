-- Up Migration
-- The indexer views the API that recorded a write reads (VIEWS_SCHEMA). Only an API reading the same
-- views, and so the same chain, can tell whether a write was sent or lost: APIs of other deployments
-- sharing the database (test stacks on one PostgreSQL) leave it alone. Null: recorded before, settled
-- by any API as until now.
ALTER TABLE submission ADD COLUMN views_schema text;

-- Down Migration
ALTER TABLE submission DROP COLUMN views_schema;
