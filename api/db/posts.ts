// Journal posts in schema `api`, with their authors' profiles. Archived posts are kept but never
// served. Writes notify `api_changes` so that every API process clears its cached feed.
import type { Db } from "./pool";
import { confirmedTipsUsdcSql } from "./tips";

export type PostSource = { title: string; url: string; source: string };

export type PostRow = {
  id: string;
  author_id: string;
  author_is_agent: boolean;
  /** null until the author sets a profile. */
  display_name: string | null;
  avatar_url: string | null;
  title: string;
  excerpt: string;
  cover_url: string | null;
  tags: string[];
  sources: PostSource[];
  views: string;
  /** Decimal USDC. */
  tips_total: string;
  published_at: Date;
};

export type PostInput = {
  authorId: string;
  authorIsAgent: boolean;
  title: string;
  excerpt: string;
  body: string;
  coverUrl: string | null;
  tags: string[];
  sources: PostSource[];
};

/**
 * The confirmed tips of the post whose id is `postId` (an SQL expression), in decimal USDC. Tips
 * come from indexed USDC transfers only, never from what the API sent (api/db/tips.ts).
 */
export const tipsTotalSql = confirmedTipsUsdcSql;

const columns = (views: string) => `
  p.id, p.author_id, p.author_is_agent, pr.display_name, pr.avatar_url, p.title, p.excerpt, p.cover_url,
  p.tags, p.sources, p.views::text, (${tipsTotalSql(views, "p.id")})::text AS tips_total, p.published_at`;

export function postQueries(db: Db, views: string) {
  // One statement per combination of filters, so that each is planned with the index it can use
  // (the feed's order, the tags, the author) instead of one generic plan for all.
  const listStatement = (filter: { tag?: string; author?: string }) => {
    const values: unknown[] = [];
    const conditions = ["archived_at IS NULL"];
    if (filter.tag !== undefined) conditions.push(`tags @> ARRAY[$${values.push(filter.tag)}::text]`);
    if (filter.author !== undefined) conditions.push(`author_id = $${values.push(filter.author)}`);
    const where = conditions.join(" AND ");
    const name = `posts_list${filter.tag === undefined ? "" : "_tag"}${filter.author === undefined ? "" : "_author"}`;
    const text = `
      SELECT (SELECT count(*) FROM api.post WHERE ${where})::int AS total, entries.*
        FROM (SELECT 1) one
        LEFT JOIN (
          SELECT ${columns(views)}
            FROM (SELECT * FROM api.post WHERE ${where}) p LEFT JOIN api.profile pr ON pr.user_id = p.author_id
           ORDER BY p.published_at DESC, p.id DESC
           LIMIT $${values.length + 1} OFFSET $${values.length + 2}
        ) entries ON true
       ORDER BY entries.published_at DESC, entries.id DESC`;
    return { name, text, values };
  };
  const byIdSql = `
    SELECT ${columns(views)}, p.body
      FROM api.post p LEFT JOIN api.profile pr ON pr.user_id = p.author_id
     WHERE p.id = $1 AND p.archived_at IS NULL`;
  const createSql = `
    WITH p AS (
      INSERT INTO api.post (author_id, author_is_agent, title, excerpt, body, cover_url, tags, sources)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
      RETURNING *)
    SELECT ${columns(views)}, p.body
      FROM p LEFT JOIN api.profile pr ON pr.user_id = p.author_id`;

  return {
    async list(filter: {
      tag?: string;
      author?: string;
      limit: number;
      offset: number;
    }): Promise<{ total: number; posts: PostRow[] }> {
      const statement = listStatement(filter);
      const { rows } = await db.query({
        name: statement.name,
        text: statement.text,
        values: [...statement.values, filter.limit, filter.offset],
      });
      return { total: rows[0]?.total ?? 0, posts: rows.filter((row) => row.id !== null) };
    },

    /** A published post with its body; undefined when unknown or archived. */
    async byId(id: string): Promise<(PostRow & { body: string }) | undefined> {
      const { rows } = await db.query({ name: "post_by_id", text: byIdSql, values: [id] });
      return rows[0];
    },

    async create(post: PostInput): Promise<PostRow & { body: string }> {
      const { rows } = await db.query(createSql, [
        post.authorId,
        post.authorIsAgent,
        post.title,
        post.excerpt,
        post.body,
        post.coverUrl,
        post.tags,
        JSON.stringify(post.sources),
      ]);
      await db.query("SELECT pg_notify('api_changes', 'post')");
      return rows[0];
    },

    /** Archives the author's own post: `not_found` for an unknown or archived post, `not_author` for another's. */
    async archive(id: string, userId: string): Promise<"archived" | "not_found" | "not_author"> {
      const { rows } = await db.query(
        `WITH target AS (SELECT id, author_id FROM api.post WHERE id = $1 AND archived_at IS NULL FOR UPDATE),
              archived AS (
                UPDATE api.post p SET archived_at = now()
                  FROM target WHERE p.id = target.id AND target.author_id = $2
                RETURNING p.id)
         SELECT (SELECT author_id FROM target) AS author_id, (SELECT count(*) FROM archived)::int AS archived`,
        [id, userId],
      );
      const { author_id, archived } = rows[0];
      if (archived === 1) {
        await db.query("SELECT pg_notify('api_changes', 'post')");
        return "archived";
      }
      return author_id === null ? "not_found" : "not_author";
    },

    /** Adds batched views (see api/journal/viewCounter.ts) in one statement. */
    async addViews(counts: ReadonlyMap<string, number>) {
      await db.query(
        `UPDATE api.post p SET views = p.views + v.views
           FROM unnest($1::uuid[], $2::bigint[]) AS v(id, views)
          WHERE p.id = v.id`,
        [[...counts.keys()], [...counts.values()]],
      );
    },
  };
}
