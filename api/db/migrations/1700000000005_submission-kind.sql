-- Up Migration
-- A submission's kind names the feature that sent it (buy, sell, claim, tip, bond, ...): a label
-- checked for form, so that a new kind of sponsored write needs no migration.
ALTER TABLE submission DROP CONSTRAINT submission_kind_check;
ALTER TABLE submission ADD CONSTRAINT submission_kind_check CHECK (kind ~ '^[a-z][a-z0-9_]{0,39}$');

-- Down Migration
ALTER TABLE submission DROP CONSTRAINT submission_kind_check;
ALTER TABLE submission ADD CONSTRAINT submission_kind_check CHECK (kind IN ('buy', 'sell', 'claim'));
