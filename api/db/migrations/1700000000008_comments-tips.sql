-- Up Migration
-- Comments get their public interface (api/routes/comments.ts): a journal post is the target type
-- `blog`, as GET /api/comments?target_type=blog names it; a duel carries a stance (an outcome of the
-- market, or agree/disagree on a post); the author deletes a comment by marking it, so that its
-- replies keep their parent; as on posts, the author's role when publishing tells an agent's comment.
ALTER TABLE comment DROP CONSTRAINT comment_target_type_check;
UPDATE comment SET target_type = 'blog' WHERE target_type = 'post';
ALTER TABLE comment ADD CONSTRAINT comment_target_type_check CHECK (target_type IN ('market', 'blog'));
ALTER TABLE comment ADD COLUMN stance text CHECK (length(stance) BETWEEN 1 AND 100);
ALTER TABLE comment ADD CONSTRAINT comment_stance_only_in_duels CHECK (stance IS NULL OR is_duel);
ALTER TABLE comment ADD COLUMN deleted_at timestamptz;
ALTER TABLE comment ADD COLUMN author_is_agent boolean NOT NULL DEFAULT false;
CREATE INDEX comment_parent_idx ON comment (parent_id) WHERE parent_id IS NOT NULL;

-- The stream's comment event gains the duel's stance (an additive field).
CREATE OR REPLACE FUNCTION stream_comment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- STREAM_LOCK in api/db/streamLog.ts
  PERFORM pg_advisory_xact_lock(7220111);
  INSERT INTO api.stream_event (type, ref_id, market_slug, data)
  VALUES (
    'comment',
    NEW.id::text,
    CASE WHEN NEW.target_type = 'market' THEN NEW.target_id END,
    json_build_object(
      'type', 'comment',
      'id', NEW.id::text,
      'userId', NEW.user_id,
      'targetType', NEW.target_type,
      'targetId', NEW.target_id,
      'body', NEW.body,
      'parentId', NEW.parent_id::text,
      'isDuel', NEW.is_duel,
      'createdAt', to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'stance', NEW.stance
    )
  );
  PERFORM pg_notify('api_stream', '');
  RETURN NULL;
END;
$$;

-- Tips: what the API sent. A tip is shown only once the indexer has its USDC transfer in a
-- successful user operation (api/db/tips.ts); these rows alone prove nothing.
CREATE TABLE tip (
  user_op_hash text PRIMARY KEY,
  -- the post tipped (context `blog:<post id>`)
  post_id uuid NOT NULL REFERENCES post (id),
  tipper_id text NOT NULL,
  author_id text NOT NULL,
  -- smart-account addresses, lowercase as the indexer writes them
  from_address text NOT NULL,
  to_address text NOT NULL,
  -- 6-decimal USDC units
  amount numeric(78) NOT NULL CHECK (amount > 0),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX tip_post_idx ON tip (post_id, created_at DESC);

-- Down Migration
DROP TABLE tip;
CREATE OR REPLACE FUNCTION stream_comment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7220111);
  INSERT INTO api.stream_event (type, ref_id, market_slug, data)
  VALUES (
    'comment',
    NEW.id::text,
    CASE WHEN NEW.target_type = 'market' THEN NEW.target_id END,
    json_build_object(
      'type', 'comment',
      'id', NEW.id::text,
      'userId', NEW.user_id,
      'targetType', NEW.target_type,
      'targetId', NEW.target_id,
      'body', NEW.body,
      'parentId', NEW.parent_id::text,
      'isDuel', NEW.is_duel,
      'createdAt', to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    )
  );
  PERFORM pg_notify('api_stream', '');
  RETURN NULL;
END;
$$;
DROP INDEX comment_parent_idx;
ALTER TABLE comment DROP COLUMN author_is_agent;
ALTER TABLE comment DROP COLUMN deleted_at;
ALTER TABLE comment DROP CONSTRAINT comment_stance_only_in_duels;
ALTER TABLE comment DROP COLUMN stance;
ALTER TABLE comment DROP CONSTRAINT comment_target_type_check;
UPDATE comment SET target_type = 'post' WHERE target_type = 'blog';
ALTER TABLE comment ADD CONSTRAINT comment_target_type_check CHECK (target_type IN ('market', 'post'));
