-- Up Migration
-- The live stream's log: every event sent on GET /api/trade/stream, numbered in the order it
-- became visible. `seq` is the SSE `id:`; a client resuming with Last-Event-ID reads seq > id.
-- Writers take STREAM_LOCK (an advisory transaction lock) before they append, so sequence numbers
-- are assigned in commit order and a reader that has seen seq n never later finds a smaller one.
CREATE TABLE stream_event (
  seq bigserial PRIMARY KEY,
  -- the indexer views schema whose trades the event is about; null for events of every feed (comments)
  feed text,
  type text NOT NULL CHECK (type IN ('trade', 'retract', 'comment')),
  -- the trade or comment the event is about
  ref_id text NOT NULL,
  -- for ?marketSlug=; null when the event concerns no market
  market_slug text,
  -- the event's payload, in field order (json, not jsonb); the API sends it compacted
  data json NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX stream_event_created_idx ON stream_event (created_at);

-- What the stream has said about each indexed trade: live = announced and not retracted since.
-- Compared with the indexer's trade table to find new trades and trades undone by a reorg. Kept per
-- views schema (feed), so that indexes of different chains sharing a database never mix.
CREATE TABLE stream_trade (
  feed text NOT NULL,
  trade_id text NOT NULL,
  block_number bigint NOT NULL,
  log_index integer NOT NULL,
  market_slug text NOT NULL,
  live boolean NOT NULL,
  PRIMARY KEY (feed, trade_id)
);

CREATE INDEX stream_trade_live_block_idx ON stream_trade (feed, block_number) WHERE live;

-- Comments on markets and journal posts (the journal's routes come later); publishing one puts a
-- `comment` event on the stream in the same transaction.
CREATE TABLE comment (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id text NOT NULL,
  target_type text NOT NULL CHECK (target_type IN ('market', 'post')),
  -- a market's slug or a post's id
  target_id text NOT NULL,
  body text NOT NULL CHECK (length(body) BETWEEN 1 AND 10000),
  parent_id uuid REFERENCES comment (id),
  is_duel boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX comment_target_idx ON comment (target_type, target_id, created_at DESC);

CREATE FUNCTION stream_comment() RETURNS trigger LANGUAGE plpgsql AS $$
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
      'createdAt', to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    )
  );
  PERFORM pg_notify('api_stream', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER comment_to_stream AFTER INSERT ON comment FOR EACH ROW EXECUTE FUNCTION stream_comment();

-- Down Migration
DROP TABLE comment;
DROP FUNCTION stream_comment();
DROP TABLE stream_trade;
DROP TABLE stream_event;
