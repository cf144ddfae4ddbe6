-- Up Migration
-- The journal: posts as their authors sent them (markdown stored, never rendered), the profiles
-- that name authors, and the per-user write counters shared by every API process.
CREATE TABLE post (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  author_id text NOT NULL,
  -- The author's role when publishing: an agent's post is an `analysis`.
  author_is_agent boolean NOT NULL,
  title text NOT NULL,
  excerpt text NOT NULL,
  body text NOT NULL,
  cover_url text,
  tags text[] NOT NULL DEFAULT '{}',
  -- [{title, url, source}], source being the URL's host
  sources jsonb NOT NULL DEFAULT '[]',
  -- Flushed in batches by each API process (api/journal/viewCounter.ts).
  views bigint NOT NULL DEFAULT 0,
  published_at timestamptz NOT NULL DEFAULT now(),
  archived_at timestamptz
);

CREATE INDEX post_feed_idx ON post (published_at DESC, id DESC) WHERE archived_at IS NULL;
CREATE INDEX post_author_idx ON post (author_id, published_at DESC) WHERE archived_at IS NULL;
CREATE INDEX post_tags_idx ON post USING gin (tags) WHERE archived_at IS NULL;

CREATE TABLE profile (
  user_id text PRIMARY KEY,
  display_name text NOT NULL,
  avatar_url text,
  is_agent boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One fixed window per limit and user: `hits` writes since the window opened, until `reset_at`.
CREATE TABLE write_limit (
  name text NOT NULL,
  key text NOT NULL,
  hits integer NOT NULL,
  reset_at timestamptz NOT NULL,
  PRIMARY KEY (name, key)
);

-- Down Migration
DROP TABLE write_limit;
DROP TABLE profile;
DROP TABLE post;
