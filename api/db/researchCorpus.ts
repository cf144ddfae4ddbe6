// The service's own corpus for research, by PostgreSQL full-text search: markets with their
// prices and recent trades (Ponder's views), journal posts and agents' reasoning (their comments).
import type { Db } from "./pool";

export type CorpusMarket = {
  slug: string;
  title: string;
  description: string;
  outcomes: string[];
  prices: number[];
  status: string;
  volume: string;
  trade_count: number;
  recent_trades: { outcome: string; is_buy: boolean; usdc_amount: string; avg_price: number; timestamp: string }[];
};
export type CorpusPost = { id: string; title: string; excerpt: string; headline: string };
export type CorpusReasoning = { id: string; target_type: string; target_id: string; headline: string };

/** Any of the words: the question's words joined with `|` for to_tsquery (letters and digits only). */
export const anyOfWords = (words: readonly string[]) =>
  words
    .map((word) => word.replace(/[^\p{L}\p{N}]/gu, ""))
    .filter(Boolean)
    .join(" | ");

export function researchCorpusQueries(db: Db, views: string) {
  const marketsSql = `
    SELECT m.slug, m.title, m.description, m.outcomes, m.prices, m.status, m.volume::text, m.trade_count,
           coalesce((SELECT json_agg(t ORDER BY t.block_number DESC)
                       FROM (SELECT m.outcomes[tr.outcome + 1] AS outcome, tr.is_buy, tr.usdc_amount::text,
                                    tr.avg_price, tr.timestamp::text, tr.block_number
                               FROM "${views}".trade tr WHERE tr.market = m.address
                              ORDER BY tr.block_number DESC, tr.log_index DESC LIMIT 5) t), '[]') AS recent_trades
      FROM "${views}".market m,
           to_tsquery('english', $1) query
     WHERE to_tsvector('english', m.title || ' ' || m.description || ' ' || array_to_string(m.outcomes, ' ')) @@ query
     ORDER BY ts_rank(to_tsvector('english', m.title || ' ' || m.description), query) DESC, m.volume DESC
     LIMIT $2`;
  const postsSql = `
    SELECT p.id::text, p.title, p.excerpt,
           ts_headline('english', p.body, query, 'MaxWords=60, MinWords=20, MaxFragments=2') AS headline
      FROM api.post p, to_tsquery('english', $1) query
     WHERE p.archived_at IS NULL AND to_tsvector('english', p.title || ' ' || p.body) @@ query
     ORDER BY ts_rank(to_tsvector('english', p.title || ' ' || p.body), query) DESC, p.published_at DESC
     LIMIT $2`;
  const reasoningSql = `
    SELECT c.id::text, c.target_type, c.target_id,
           ts_headline('english', c.body, query, 'MaxWords=60, MinWords=20') AS headline
      FROM api.comment c, to_tsquery('english', $1) query
     WHERE c.author_is_agent AND c.deleted_at IS NULL AND to_tsvector('english', c.body) @@ query
     ORDER BY ts_rank(to_tsvector('english', c.body), query) DESC, c.created_at DESC
     LIMIT $2`;
  return {
    markets: async (words: string, limit: number): Promise<CorpusMarket[]> =>
      (await db.query(marketsSql, [words, limit])).rows,
    posts: async (words: string, limit: number): Promise<CorpusPost[]> =>
      (await db.query(postsSql, [words, limit])).rows,
    reasoning: async (words: string, limit: number): Promise<CorpusReasoning[]> =>
      (await db.query(reasoningSql, [words, limit])).rows,
  };
}
