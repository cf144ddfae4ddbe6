// Agents, their vaults and bonds as indexed from the AgentRegistry and the vaults (Ponder's `app`
// views), with the reasoning agents sent (api.agent_decision). Each read runs in one read-only
// snapshot, so that its figures and its `asOf`, the block the indexer had committed, belong together
// even while the indexer commits new blocks.
import type pg from "pg";
import type { AgentActivity, HeldMarket } from "../agents/stats";
import { type Db, withClient } from "./pool";

export type AgentRow = {
  manager: string;
  vault: string;
  name: string;
  persona: string;
  strategy: string;
  house: boolean;
  active: boolean;
  fee_bps: number;
  lockup_seconds: string;
  total_shares: string;
  bonded: string;
  unbonded: string;
  fees_paid: string;
  created_at: string;
};

/** A market a holder has position rows in, with the names readers see. */
export type HeldMarketRecord = HeldMarket & { address: string; slug: string; outcomes: string[] };

/** What a vault holds: cash and position rows (only those with tokens, unless stats need them all). */
export type VaultBook = { cash: bigint; markets: HeldMarketRecord[] };

export type AgentRecord = AgentRow & { book: VaultBook; activity: AgentActivity };

export type FeedRow = {
  id: string;
  agent_id: string;
  agent_name: string;
  slug: string;
  action: "buy" | "sell" | "claim";
  outcome: string;
  amount: string;
  tokens: string;
  timestamp: string;
  tx_hash: string;
  user_op_hash: string | null;
  reasoning: string | null;
  confidence: number | null;
  price_at_decision: number | null;
};

export type BondRow = {
  id: string;
  vault: string;
  agent: string;
  agent_name: string;
  staker: string;
  amount: string;
  principal: string;
  shares: string;
  high_water: string;
  bonded_at: string;
  fee_bps: number;
  total_shares: string;
  lockup_seconds: string;
};

export type BondRecord = BondRow & { book: VaultBook };

export type AsOf = { asOf: number };

type Client = pg.PoolClient;

const agentColumns = `manager, vault, name, persona, strategy, house, active, fee_bps, lockup_seconds::text,
  total_shares::text, bonded::text, unbonded::text, fees_paid::text, created_at::text`;

export function agentQueries(db: Db, views: string) {
  const v = `"${views}"`;
  // Ponder's checkpoint string holds the block number at characters 27 to 42.
  const asOfSql = `SELECT coalesce(max(substring(latest_checkpoint FROM 27 FOR 16)::bigint), 0)::text AS block
                     FROM ${v}._ponder_checkpoint`;
  const agentsPageSql = `
    WITH filtered AS (
      SELECT ${agentColumns}, created_block FROM ${v}.agent
       WHERE ($1::boolean IS NULL OR active = $1) AND ($2::boolean IS NULL OR house = $2)),
         page AS (SELECT * FROM filtered ORDER BY created_block DESC, manager LIMIT $3 OFFSET $4)
    SELECT (SELECT count(*) FROM filtered)::int AS total, page.*
      FROM (SELECT 1) one LEFT JOIN page ON true
     ORDER BY page.created_block DESC, page.manager`;
  const agentSql = `SELECT ${agentColumns} FROM ${v}.agent WHERE manager = $1`;
  const positionsSql = `
    SELECT p.holder, p.market, m.slug, m.outcomes, m.status, m.resolved_outcome, m.prices_wad,
           p.outcome, p.tokens::text, p.cost_basis::text, p.realized_pnl::text
      FROM ${v}.position p JOIN ${v}.market m ON m.address = p.market
     WHERE p.holder = ANY($1::text[]) AND ($2 OR p.tokens > 0)
     ORDER BY m.slug, p.outcome`;
  const cashSql = `SELECT holder, amount::text FROM ${v}.usdc_balance WHERE holder = ANY($1::text[])`;
  // What a staker's bond buys and an unbond sells or claims in the vault's name is not the agent's
  // decision: it shares the bond's or unbond's transaction and carries no decision of the agent's.
  const stakerPart = (txHash: string, vault: string, userOpHash: string) =>
    `((EXISTS (SELECT 1 FROM ${v}.unbond u WHERE u.tx_hash = ${txHash} AND u.vault = ${vault})
       OR EXISTS (SELECT 1 FROM ${v}.bond bo WHERE bo.tx_hash = ${txHash} AND bo.vault = ${vault}))
      AND NOT EXISTS (SELECT 1 FROM api.agent_decision ad WHERE ad.user_op_hash = ${userOpHash}))`;
  // The agent's own trades: what stakers' bonds and unbonds trade in the vault's name is left out.
  const tradeTotalsSql = `
    SELECT trader, count(*)::int AS count, (count(*) FILTER (WHERE is_buy))::int AS buys,
           sum(usdc_amount)::text AS volume, coalesce(sum(usdc_amount) FILTER (WHERE is_buy), 0)::text AS bought
      FROM ${v}.trade t
     WHERE trader = ANY($1::text[]) AND NOT ${stakerPart("t.tx_hash", "t.trader", "t.user_op_hash")}
     GROUP BY trader`;
  // Buys only: a confidence is the agent's belief in the outcome it bought.
  const decisionsSql = `
    SELECT t.trader, d.confidence, t.outcome = m.resolved_outcome AS won
      FROM ${v}.trade t
      JOIN ${v}.market m ON m.address = t.market AND m.status = 'resolved'
      JOIN api.agent_decision d ON d.user_op_hash = t.user_op_hash
     WHERE t.trader = ANY($1::text[]) AND t.is_buy AND d.confidence IS NOT NULL`;
  const feedSql = `
    WITH entries AS (
      SELECT t.id, a.manager AS agent_id, a.name AS agent_name, m.slug,
             CASE WHEN t.is_buy THEN 'buy' ELSE 'sell' END AS action, m.outcomes[t.outcome + 1] AS outcome,
             t.usdc_amount AS amount, t.token_amount AS tokens, t.block_number, t.log_index, t.timestamp,
             t.tx_hash, t.user_op_hash
        FROM ${v}.trade t JOIN ${v}.agent a ON a.vault = t.trader JOIN ${v}.market m ON m.address = t.market
       WHERE ($1::text IS NULL OR a.manager = $1) AND ($2::text IS NULL OR m.slug = $2)
         AND NOT ${stakerPart("t.tx_hash", "t.trader", "t.user_op_hash")}
      UNION ALL
      -- A claim's id is "<txHash>-<logIndex>", which orders it among the trades of its block.
      SELECT c.id, a.manager, a.name, m.slug, 'claim', '', c.usdc_paid, c.tokens_burned, c.block_number,
             split_part(c.id, '-', 2)::int, c.timestamp, c.tx_hash, c.user_op_hash
        FROM ${v}.claim c JOIN ${v}.agent a ON a.vault = c.holder JOIN ${v}.market m ON m.address = c.market
       WHERE ($1::text IS NULL OR a.manager = $1) AND ($2::text IS NULL OR m.slug = $2)
         AND NOT ${stakerPart("c.tx_hash", "c.holder", "c.user_op_hash")}),
         page AS (SELECT * FROM entries ORDER BY block_number DESC, log_index DESC LIMIT $3)
    SELECT (SELECT count(*) FROM entries)::int AS total, page.id, page.agent_id, page.agent_name, page.slug,
           page.action, page.outcome, page.amount::text, page.tokens::text, page.timestamp::text, page.tx_hash,
           page.user_op_hash, d.reasoning, d.confidence, d.price_at_decision
      FROM (SELECT 1) one
      LEFT JOIN page ON true
      LEFT JOIN api.agent_decision d ON d.user_op_hash = page.user_op_hash
     ORDER BY page.block_number DESC, page.log_index DESC`;
  const bondsSql = `
    WITH filtered AS (
      SELECT b.id, b.vault, b.agent, a.name AS agent_name, b.staker, b.amount::text, b.principal::text,
             b.shares::text, b.high_water::text, b.bonded_at::text, a.fee_bps, a.total_shares::text,
             a.lockup_seconds::text
        FROM ${v}.bond b JOIN ${v}.agent a ON a.manager = b.agent
       WHERE b.shares > 0 AND ($1::text IS NULL OR b.agent = $1) AND ($2::text IS NULL OR b.staker = $2)),
         page AS (SELECT * FROM filtered ORDER BY id DESC LIMIT $3 OFFSET $4)
    SELECT (SELECT count(*) FROM filtered)::int AS total, page.id::text AS id, page.vault, page.agent,
           page.agent_name, page.staker, page.amount, page.principal, page.shares, page.high_water, page.bonded_at,
           page.fee_bps, page.total_shares, page.lockup_seconds
      FROM (SELECT 1) one LEFT JOIN page ON true
     ORDER BY page.id DESC`;

  /** Runs `read` in one REPEATABLE READ snapshot and adds the block the indexer had committed in it. */
  async function snapshot<T>(read: (client: Client) => Promise<T>): Promise<T & AsOf> {
    return withClient(db, async (client) => {
      try {
        await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
        const { rows } = await client.query({ name: "agents_as_of", text: asOfSql });
        const result = await read(client);
        await client.query("COMMIT");
        return { ...result, asOf: Number(rows[0].block) };
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      }
    });
  }

  /** Cash and holdings of each vault; `allRows` keeps emptied position rows, for stats. */
  async function books(client: Client, vaults: string[], allRows: boolean): Promise<Map<string, VaultBook>> {
    // One client runs one query at a time: these run in turn (pg deprecates queueing them).
    const positions = await client.query({ name: "agent_positions", text: positionsSql, values: [vaults, allRows] });
    const cash = await client.query({ name: "agent_cash", text: cashSql, values: [vaults] });
    const result = new Map<string, VaultBook>(vaults.map((vault) => [vault, { cash: 0n, markets: [] }]));
    for (const row of cash.rows) result.get(row.holder)!.cash = BigInt(row.amount);
    for (const row of positions.rows) {
      const book = result.get(row.holder)!;
      let held = book.markets.find((market) => market.address === row.market);
      if (!held) {
        held = {
          address: row.market,
          slug: row.slug,
          outcomes: row.outcomes,
          market: {
            status: row.status,
            resolvedOutcome: row.resolved_outcome,
            pricesWad: row.prices_wad.map(BigInt),
          },
          positions: [],
        };
        book.markets.push(held);
      }
      held.positions.push({
        outcome: row.outcome,
        tokens: BigInt(row.tokens),
        costBasis: BigInt(row.cost_basis),
        realizedPnl: BigInt(row.realized_pnl),
      });
    }
    return result;
  }

  /** The vaults' books with every position row, their trade totals and scored confidences. */
  async function records(client: Client, agents: AgentRow[]): Promise<AgentRecord[]> {
    const vaults = agents.map((agent) => agent.vault);
    if (vaults.length === 0) return [];
    const vaultBooks = await books(client, vaults, true);
    const totals = await client.query({ name: "agent_trade_totals", text: tradeTotalsSql, values: [vaults] });
    const decisions = await client.query({ name: "agent_decisions_scored", text: decisionsSql, values: [vaults] });
    return agents.map((agent) => {
      const total = totals.rows.find((row) => row.trader === agent.vault);
      return {
        ...agent,
        book: vaultBooks.get(agent.vault)!,
        activity: {
          trades: {
            count: total?.count ?? 0,
            buys: total?.buys ?? 0,
            volume: BigInt(total?.volume ?? 0),
            bought: BigInt(total?.bought ?? 0),
          },
          markets: vaultBooks.get(agent.vault)!.markets,
          decisions: decisions.rows
            .filter((row) => row.trader === agent.vault)
            .map((row) => ({ confidence: row.confidence, won: row.won })),
        },
      };
    });
  }

  async function bondPage(
    client: Client,
    filter: { agent?: string; staker?: string; limit: number; offset: number },
  ): Promise<{ total: number; bonds: BondRecord[] }> {
    const { rows } = await client.query({
      name: "agent_bonds",
      text: bondsSql,
      values: [filter.agent ?? null, filter.staker ?? null, filter.limit, filter.offset],
    });
    const bonds: BondRow[] = rows.filter((row) => row.id !== null);
    const vaultBooks = await books(client, [...new Set(bonds.map((bond) => bond.vault))], false);
    return {
      total: rows[0]?.total ?? 0,
      bonds: bonds.map((bond) => ({ ...bond, book: vaultBooks.get(bond.vault)! })),
    };
  }

  return {
    /** A page of agents, newest first, filtered by status and house flag. */
    list(filter: { active?: boolean; house?: boolean; limit: number; offset: number }) {
      return snapshot(async (client) => {
        const { rows } = await client.query({
          name: "agents_page",
          text: agentsPageSql,
          values: [filter.active ?? null, filter.house ?? null, filter.limit, filter.offset],
        });
        const agents: AgentRow[] = rows.filter((row) => row.manager !== null);
        return { total: (rows[0]?.total ?? 0) as number, agents: await records(client, agents) };
      });
    },

    /** One agent by its manager address (lowercase). */
    find(manager: string) {
      return snapshot(async (client) => {
        const { rows } = await client.query({ name: "agent_by_manager", text: agentSql, values: [manager] });
        const [agent] = await records(client, rows);
        return { agent };
      });
    },

    /** The agents' trades and claims, newest first, with what the agents said about them. */
    feed(filter: { agent?: string; slug?: string; limit: number }) {
      return snapshot(async (client) => {
        const { rows } = await client.query({
          name: "agent_feed",
          text: feedSql,
          values: [filter.agent ?? null, filter.slug ?? null, filter.limit],
        });
        return { total: (rows[0]?.total ?? 0) as number, entries: rows.filter((row) => row.id !== null) as FeedRow[] };
      });
    },

    /** Bonds with shares left, newest first, with their vaults' books for valuation. */
    bonds(filter: { agent?: string; limit: number; offset: number }) {
      return snapshot((client) => bondPage(client, filter));
    },

    /** A holder's market positions (with tokens or a realized result) and live bonds. */
    holdings(holder: string, bondLimit: number) {
      return snapshot(async (client) => {
        const markets = await books(client, [holder], true);
        const bonds = await bondPage(client, { staker: holder, limit: bondLimit, offset: 0 });
        return { markets: markets.get(holder)!.markets, ...bonds };
      });
    },
  };
}
