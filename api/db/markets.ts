// Markets as readers see them: indexed markets from Ponder's views plus drafts (pending) from the
// API's own schema. A market past closesAt is `closed` even before anyone calls close().
import type { Db } from "./pool";

export type MarketRow = {
  id: string;
  slug: string;
  title: string;
  description: string;
  status: string;
  outcomes: string[];
  /** null for drafts: their prices are the uniform opening prices. */
  prices: number[] | null;
  volume: string;
  liquidity: string;
  created_at: string;
  closes_at: string;
  contract_address: string | null;
  resolved_outcome: number | null;
  /** The LMSR parameter b in 6-decimal USDC units. */
  b: string;
  fee_bps: number;
};

const allMarkets = (views: string) => `
  SELECT id, slug, title, description,
         CASE WHEN status = 'active' AND closes_at <= extract(epoch FROM now()) THEN 'closed' ELSE status END AS status,
         outcomes, prices, volume::text, liquidity::text, created_at::text, closes_at::text,
         address AS contract_address, resolved_outcome, b::text, fee_bps
    FROM "${views}".market
  UNION ALL
  SELECT d.id, d.slug, d.title, d.description, 'pending', d.outcomes, NULL, '0', '0',
         extract(epoch FROM d.created_at)::bigint::text, extract(epoch FROM d.closes_at)::bigint::text,
         d.contract_address, NULL, d.b::text, d.fee_bps
    FROM api.market_draft d
   WHERE NOT EXISTS (SELECT 1 FROM "${views}".market m WHERE m.slug = d.slug)`;

export function marketQueries(db: Db, views: string) {
  const listSql = `
    WITH filtered AS (SELECT * FROM (${allMarkets(views)}) markets WHERE $1::text IS NULL OR status = $1),
         page AS (SELECT * FROM filtered ORDER BY created_at::bigint DESC, slug LIMIT $2 OFFSET $3)
    SELECT (SELECT count(*) FROM filtered)::int AS total, page.*
      FROM (SELECT 1) one LEFT JOIN page ON true`;
  const bySlugSql = `SELECT * FROM (${allMarkets(views)}) markets WHERE slug = $1 LIMIT 1`;

  return {
    async list(filter: {
      status?: string;
      limit: number;
      offset: number;
    }): Promise<{ total: number; markets: MarketRow[] }> {
      const { rows } = await db.query({
        name: "markets_list",
        text: listSql,
        values: [filter.status ?? null, filter.limit, filter.offset],
      });
      return { total: rows[0]?.total ?? 0, markets: rows.filter((row) => row.slug !== null) };
    },

    async bySlug(slug: string): Promise<MarketRow | undefined> {
      const { rows } = await db.query({ name: "market_by_slug", text: bySlugSql, values: [slug] });
      return rows[0];
    },
  };
}

export type DraftInput = {
  slug: string;
  id: string;
  title: string;
  description: string;
  outcomes: string[];
  closesAt: Date;
  /** The LMSR parameter b in 6-decimal USDC units. */
  bUnits: bigint;
  feeBps: number;
  contractAddress: string;
  createdBy: string;
};

export function draftQueries(db: Db, views: string) {
  return {
    /** Inserts the draft unless the slug is taken by a draft or a market; false when taken. */
    async create(draft: DraftInput): Promise<boolean> {
      const { rowCount } = await db.query(
        `INSERT INTO api.market_draft (slug, id, title, description, outcomes, closes_at, b, fee_bps, contract_address, created_by)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10
          WHERE NOT EXISTS (SELECT 1 FROM "${views}".market WHERE slug = $1)
         ON CONFLICT (slug) DO NOTHING`,
        [
          draft.slug,
          draft.id,
          draft.title,
          draft.description,
          draft.outcomes,
          draft.closesAt,
          draft.bUnits.toString(),
          draft.feeBps,
          draft.contractAddress,
          draft.createdBy,
        ],
      );
      if (rowCount) await db.query("SELECT pg_notify('api_changes', 'market_draft')");
      return rowCount === 1;
    },

    async find(slug: string) {
      const { rows } = await db.query("SELECT *, b::text AS b FROM api.market_draft WHERE slug = $1", [slug]);
      return rows[0] as
        | {
            slug: string;
            title: string;
            description: string;
            outcomes: string[];
            closes_at: Date;
            b: string;
            fee_bps: number;
          }
        | undefined;
    },
  };
}
