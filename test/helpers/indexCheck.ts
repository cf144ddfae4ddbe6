// Compares what the indexer wrote with what the contracts say, and with another index.
import pg from "pg";
import type { Address, PublicClient } from "viem";
import { AgentRegistryAbi, AgentVaultAbi, MarketAbi, TestUSDCAbi } from "../../abis";
import type { Deployment } from "../../deployments/schema";

// numeric[] as exact integers, not floats (pg's default), as Ponder itself reads them.
const NUMERIC_ARRAY = 1231 as unknown as Parameters<typeof pg.types.setTypeParser>[0];
const INT8_ARRAY = 1016 as unknown as Parameters<typeof pg.types.setTypeParser>[0];
pg.types.setTypeParser(NUMERIC_ARRAY, pg.types.getTypeParser(INT8_ARRAY));

const STATUS = ["uninitialized", "active", "closed", "resolved", "voided"];

/** Every difference between the indexed tables in `schema` and the chain, as readable lines. */
export async function differencesFromChain(
  db: pg.Client,
  schema: string,
  chain: PublicClient,
  deployment: Deployment,
  holders: Address[],
): Promise<string[]> {
  const diffs: string[] = [];
  const expectEqual = (what: string, indexed: unknown, onChain: unknown) => {
    const a = JSON.stringify(indexed, (_, v) => (typeof v === "bigint" ? v.toString() : v));
    const b = JSON.stringify(onChain, (_, v) => (typeof v === "bigint" ? v.toString() : v));
    if (a !== b) diffs.push(`${what}: indexed ${a}, chain ${b}`);
  };
  const read = <T>(address: Address, functionName: string, args: unknown[] = []) =>
    chain.readContract({
      address,
      abi: MarketAbi,
      functionName: functionName as never,
      args: args as never,
    }) as Promise<T>;
  const usdcOf = (holder: Address) =>
    chain.readContract({
      address: deployment.contracts.usdc,
      abi: TestUSDCAbi,
      functionName: "balanceOf",
      args: [holder],
    });

  const markets = (await db.query(`SELECT * FROM "${schema}".market ORDER BY address`)).rows;
  expectEqual("market count", markets.length, deployment.markets.length);
  for (const m of markets) {
    const address = m.address as Address;
    expectEqual(`${m.slug} prices`, m.prices_wad.map(BigInt), [...(await read<bigint[]>(address, "prices"))]);
    expectEqual(`${m.slug} quantities`, m.quantities.map(BigInt), [...(await read<bigint[]>(address, "quantities"))]);
    expectEqual(`${m.slug} status`, m.status, STATUS[await read<number>(address, "status")]);
    if (m.status === "resolved")
      expectEqual(`${m.slug} winner`, m.resolved_outcome, await read<number>(address, "resolvedOutcome"));
    expectEqual(`${m.slug} liquidity`, BigInt(m.liquidity), await usdcOf(address));
  }

  // Agents: their vaults' state, and their vaults among the holders whose positions must match.
  const agents = (await db.query(`SELECT * FROM "${schema}".agent ORDER BY manager`)).rows;
  const registry = deployment.contracts.agentRegistry;
  for (const a of agents) {
    const vault = a.vault as Address;
    const readVault = <T>(functionName: string, args: unknown[] = []) =>
      chain.readContract({
        address: vault,
        abi: AgentVaultAbi,
        functionName: functionName as never,
        args: args as never,
      }) as Promise<T>;
    const [registeredVault, house, active] = await chain.readContract({
      address: registry,
      abi: AgentRegistryAbi,
      functionName: "agents",
      args: [a.manager],
    });
    expectEqual(`agent ${a.manager}`, [a.vault, a.house, a.active], [registeredVault.toLowerCase(), house, active]);
    expectEqual(
      `agent ${a.manager} terms`,
      [a.fee_bps, BigInt(a.lockup_seconds)],
      [await readVault<number>("feeBps"), BigInt(await readVault<number>("lockupSeconds"))],
    );
    expectEqual(`agent ${a.manager} totalShares`, BigInt(a.total_shares), await readVault<bigint>("totalShares"));
  }
  const bonds = (await db.query(`SELECT * FROM "${schema}".bond ORDER BY id`)).rows;
  expectEqual(
    "bond count",
    bonds.length,
    Number(await chain.readContract({ address: registry, abi: AgentRegistryAbi, functionName: "bondCount" })),
  );
  for (const b of bonds) {
    const [staker, bondedAt, shares, principal, highWater] = await chain.readContract({
      address: b.vault,
      abi: AgentVaultAbi,
      functionName: "bonds",
      args: [BigInt(b.id)],
    });
    expectEqual(
      `bond ${b.id}`,
      [b.staker, b.bonded_at, b.shares, b.principal, b.high_water].map(String),
      [staker.toLowerCase(), bondedAt, shares, principal, highWater].map(String),
    );
  }

  const positions = new Map<string, bigint>(
    (await db.query(`SELECT holder, market, outcome, tokens FROM "${schema}".position`)).rows.map((p) => [
      `${p.holder}:${p.market}:${p.outcome}`.toLowerCase(),
      BigInt(p.tokens),
    ]),
  );
  for (const holder of [...holders, ...agents.map((a) => a.vault as Address)]) {
    for (const m of markets) {
      for (let outcome = 0; outcome < m.outcomes.length; outcome++) {
        const onChain = await read<bigint>(m.address, "balanceOf", [holder, BigInt(outcome)]);
        const indexed = positions.get(`${holder}:${m.address}:${outcome}`.toLowerCase()) ?? 0n;
        expectEqual(`tokens of ${holder} in ${m.slug}#${outcome}`, indexed, onChain);
      }
    }
  }

  const balances = (await db.query(`SELECT holder, amount FROM "${schema}".usdc_balance`)).rows;
  const indexedBalance = new Map(balances.map((b) => [String(b.holder).toLowerCase(), BigInt(b.amount)]));
  const everyone = new Set([...holders.map((h) => h.toLowerCase()), ...indexedBalance.keys()]);
  for (const holder of everyone) {
    expectEqual(`USDC of ${holder}`, indexedBalance.get(holder) ?? 0n, await usdcOf(holder as Address));
  }
  return diffs;
}

const TABLES: Record<string, string> = {
  market: "address",
  trade: "id",
  position: "holder, market, outcome",
  claim: "id",
  user_operation: "hash",
  usdc_balance: "holder",
  usdc_transfer: "id",
  price_candle: "market, interval, bucket_start",
  agent: "manager",
  agent_vault: "vault",
  bond: "id",
  unbond: "id",
};

/** All indexed rows of `schema`, ordered, for comparing two indexes of the same chain. */
export async function dumpTables(db: pg.Client, schema: string): Promise<Record<string, unknown[]>> {
  const dump: Record<string, unknown[]> = {};
  for (const [table, order] of Object.entries(TABLES)) {
    dump[table] = (await db.query(`SELECT * FROM "${schema}"."${table}" ORDER BY ${order}`)).rows;
  }
  return dump;
}

type Candle = { open: number[]; high: number[]; low: number[]; close: number[]; volume: bigint; tradeCount: number };

/** Candles recomputed from the trade rows alone, keyed `${market}:${interval}:${bucketStart}`. */
export async function candlesFromTrades(db: pg.Client, schema: string): Promise<Map<string, Candle>> {
  const trades = (await db.query(`SELECT * FROM "${schema}".trade ORDER BY block_number, log_index`)).rows;
  const sizes = { "1h": 3600n, "4h": 14400n, "1d": 86400n };
  const candles = new Map<string, Candle>();
  for (const t of trades) {
    const prices: number[] = t.prices_after;
    const gross = t.is_buy ? BigInt(t.usdc_amount) : BigInt(t.usdc_amount) + BigInt(t.fee);
    for (const [interval, size] of Object.entries(sizes)) {
      const timestamp = BigInt(t.timestamp);
      const key = `${t.market}:${interval}:${timestamp - (timestamp % size)}`;
      const candle = candles.get(key);
      if (!candle) {
        candles.set(key, { open: prices, high: prices, low: prices, close: prices, volume: gross, tradeCount: 1 });
        continue;
      }
      candle.high = candle.high.map((h, i) => Math.max(h, prices[i]!));
      candle.low = candle.low.map((l, i) => Math.min(l, prices[i]!));
      candle.close = prices;
      candle.volume += gross;
      candle.tradeCount += 1;
    }
  }
  return candles;
}

export async function indexedCandles(db: pg.Client, schema: string): Promise<Map<string, Candle>> {
  const rows = (await db.query(`SELECT * FROM "${schema}".price_candle`)).rows;
  return new Map(
    rows.map((r) => [
      `${r.market}:${r.interval}:${r.bucket_start}`,
      { open: r.open, high: r.high, low: r.low, close: r.close, volume: BigInt(r.volume), tradeCount: r.trade_count },
    ]),
  );
}
