// Issue 14's acceptance on the real stack: stakers bond into an agent's vault through the API, the
// agent trades from it, a market resolves, and every figure the API shows equals the contract's own,
// to the unit; what goes in comes out, plus the vault's realized profit.
import pg from "pg";
import { type Address, decodeErrorResult, encodeFunctionData, type Hex, type PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentVaultAbi, TestUSDCAbi } from "../abis";
import { publicClientFor } from "../api/chain/chain";
import { testClient } from "./helpers/client";
import { until } from "./helpers/sse";
import { startTestStack, type TestStack } from "./helpers/stack";
import { tokenFor } from "./helpers/tokens";

const RATES = "fed-cuts-rates-march-2027";
const BITCOIN = "btc-above-150k-end-of-2026";

describe("agents and bonds", () => {
  let stack: TestStack;
  let chain: PublicClient;
  let db: pg.Client;
  let client: ReturnType<typeof testClient>;
  const tokens: Record<string, string> = {};
  const wallets: Record<string, Address> = {};
  let agentId: string;
  let vault: Address;

  const usdcOf = (holder: Address) =>
    chain.readContract({
      address: stack.deployment.contracts.usdc,
      abi: TestUSDCAbi,
      functionName: "balanceOf",
      args: [holder],
    });
  const confirmed = async (user: string, sent: { status: number; body: any }) => {
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    let status: { status: string; error?: string; blockNumber?: number } = { status: "pending" };
    await until(async () => {
      status = (await client.call("GET", `/api/trade/status/${sent.body.txId}`, { token: tokens[user] })).body;
      return status.status !== "pending";
    }, `${sent.body.txId} settled`);
    expect(status).toMatchObject({ status: "confirmed" });
    return status as { blockNumber: number };
  };
  /** Waits until the API's agent reads have indexed `block`. */
  const indexedAt = async (block: number) => {
    await until(async () => {
      const roster = (await client.call("GET", "/api/agents/roster")).body;
      return roster.asOf >= block;
    }, `agents indexed at ${block}`);
  };
  const bondsOf = async () => (await client.call("GET", `/api/agents/bonds?agentId=${agentId}`)).body;
  const quoteUnbond = async (bondId: bigint, shares: bigint) => {
    const result = await chain
      .call({
        to: vault,
        data: encodeFunctionData({ abi: AgentVaultAbi, functionName: "quoteUnbond", args: [bondId, shares] }),
      })
      .then(
        () => {
          throw new Error("quoteUnbond returned instead of reverting");
        },
        (error: { walk: (fn: (e: unknown) => boolean) => { data?: Hex } | null }) => error.walk((e: any) => !!e?.data),
      );
    const decoded = decodeErrorResult({ abi: AgentVaultAbi, data: result!.data! });
    expect(decoded.errorName).toBe("UnbondQuote");
    const [usdcPaid, fee] = decoded.args as readonly [bigint, bigint];
    return { usdcPaid, fee };
  };
  const vaultBond = async (bondId: bigint) => {
    const [staker, bondedAt, shares, principal, highWater] = await chain.readContract({
      address: vault,
      abi: AgentVaultAbi,
      functionName: "bonds",
      args: [bondId],
    });
    return { staker, bondedAt, shares, principal, highWater };
  };

  beforeAll(async () => {
    stack = await startTestStack();
    client = testClient(stack.apiUrl!);
    chain = publicClientFor(stack.rpcUrl);
    db = new pg.Client(stack.databaseUrl);
    await db.connect();
    tokens.admin = await tokenFor("admin", { roles: ["admin"] });
    tokens.quant = await tokenFor("quant", { roles: ["agent"] });
    for (const user of ["quant", "sam", "tess"]) {
      tokens[user] ??= await tokenFor(user);
      wallets[user] = (await client.call("POST", "/api/wallet/get-or-create", { token: tokens[user] })).body.address;
    }
    for (const staker of ["sam", "tess"])
      expect((await client.call("POST", "/api/wallet/faucet", { token: tokens[staker] })).status).toBe(200);
  });
  afterAll(async () => {
    await db?.end();
    await stack?.dispose();
  });

  it("pays two stakers exactly what the contract computes, after the agent traded from the vault and a market resolved", async () => {
    const registered = await client.call("POST", "/api/agents", {
      token: tokens.quant,
      body: { name: "Quant", persona: "Patient", strategy: "momentum", feeBps: 1000, lockupSeconds: 0 },
    });
    await confirmed("quant", registered);
    agentId = registered.body.agentId;
    vault = registered.body.vaultAddress;
    expect(agentId).toBe(wallets.quant!.toLowerCase());

    const bondIds: Record<string, bigint> = {};
    for (const [staker, amount] of [
      ["sam", 100],
      ["tess", 300],
    ] as const) {
      const sent = await client.call("POST", `/api/agents/${agentId}/bonds`, {
        token: tokens[staker],
        body: { amount },
      });
      const { blockNumber } = await confirmed(staker, sent);
      await indexedAt(blockNumber);
      const mine = (await bondsOf()).bonds.find(
        (bond: any) => bond.stakerAddress.toLowerCase() === wallets[staker]!.toLowerCase(),
      );
      bondIds[staker] = BigInt(mine.bondId);
    }
    expect(await usdcOf(vault)).toBe(400_000_000n);

    const trade = async (path: string, body: Record<string, unknown>) =>
      confirmed("quant", await client.call("POST", path, { token: tokens.quant, body }));
    await trade("/api/trade/buy", {
      marketSlug: RATES,
      outcome: "Yes",
      amount: 120,
      reasoning: "rates first",
      confidence: 0.7,
    });
    await trade("/api/trade/buy", {
      marketSlug: BITCOIN,
      outcome: "No",
      amount: 80,
      reasoning: "btc",
      confidence: 0.6,
    });
    const last = await trade("/api/trade/sell", { marketSlug: RATES, outcome: "Yes", tokenAmount: 50 });
    expect(await usdcOf(vault)).toBeLessThan(400_000_000n - 150_000_000n);

    await indexedAt(last.blockNumber);
    const listed = await bondsOf();
    expect(listed.bonds).toHaveLength(2);
    for (const [staker, bondId] of Object.entries(bondIds)) {
      const entry = listed.bonds.find((bond: any) => bond.bondId === bondId.toString());
      const [value] = await chain.readContract({
        address: vault,
        abi: AgentVaultAbi,
        functionName: "bondValue",
        args: [bondId],
        blockNumber: BigInt(listed.asOf),
      });
      expect(Math.round(entry.currentValue * 1e6), staker).toBe(Number(value));
      const quote = await quoteUnbond(bondId, (await vaultBond(bondId)).shares);
      expect(Math.round(entry.liquidationValue * 1e6), staker).toBe(Number(quote.usdcPaid));
    }
    expect(listed.bonds.find((bond: any) => bond.bondId === bondIds.tess!.toString()).sharePercent).toBeCloseTo(
      0.75,
      9,
    );

    const resolved = await client.call("POST", `/api/markets/${RATES}/resolve`, {
      token: tokens.admin,
      body: { outcome: "Yes" },
    });
    expect(resolved.status).toBe(200);

    for (const staker of ["sam", "tess"] as const) {
      const bondId = bondIds[staker]!;
      const quote = await quoteUnbond(bondId, (await vaultBond(bondId)).shares);
      const before = await usdcOf(wallets[staker]!);
      const managerBefore = await usdcOf(wallets.quant!);
      await confirmed(
        staker,
        await client.call("POST", `/api/agents/bonds/${bondId}/unbond`, { token: tokens[staker], body: {} }),
      );
      expect((await usdcOf(wallets[staker]!)) - before, staker).toBe(quote.usdcPaid);
      expect((await usdcOf(wallets.quant!)) - managerBefore, staker).toBe(quote.fee);
    }

    const final = await chain.getBlockNumber();
    await indexedAt(Number(final));
    expect((await bondsOf()).bonds).toEqual([]);
    const schema = stack.viewsSchema;
    const flows = await db.query(
      `SELECT
         (SELECT coalesce(sum(amount), 0) FROM "${schema}".bond WHERE vault = $1) AS bonded,
         (SELECT coalesce(sum(usdc_paid), 0) FROM "${schema}".unbond WHERE vault = $1) AS paid,
         (SELECT coalesce(sum(fee), 0) FROM "${schema}".unbond WHERE vault = $1) AS fees,
         (SELECT coalesce(sum(CASE WHEN is_buy THEN -usdc_amount ELSE usdc_amount END), 0)
            FROM "${schema}".trade WHERE trader = $1) AS traded,
         (SELECT coalesce(sum(usdc_paid), 0) FROM "${schema}".claim WHERE holder = $1) AS claimed`,
      [vault.toLowerCase()],
    );
    const { bonded, paid, fees, traded, claimed } = flows.rows[0];
    const realizedProfit = BigInt(traded) + BigInt(claimed);
    const remaining = await usdcOf(vault);
    expect(BigInt(bonded)).toBe(400_000_000n);
    expect(BigInt(paid) + BigInt(fees) + remaining).toBe(BigInt(bonded) + realizedProfit);
    const nav = await chain.readContract({ address: vault, abi: AgentVaultAbi, functionName: "netAssetValue" });
    expect(nav).toBe(remaining);

    // The unbonds sold and claimed in the vault's name: not decisions of the agent, not in its feed.
    const { feed } = (await client.call("GET", `/api/agents/feed?agentId=${agentId}`)).body;
    expect(feed.map((entry: any) => [entry.action, entry.marketSlug, entry.reasoning, entry.confidence])).toEqual([
      ["sell", RATES, "", null],
      ["buy", BITCOIN, "btc", 0.6],
      ["buy", RATES, "rates first", 0.7],
    ]);
  });
});
