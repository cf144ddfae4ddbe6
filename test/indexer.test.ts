// The indexer against the real stack: a busy trading session, settlement and claims, a reorg, and
// candles; the tables must equal the contracts' own views.

import pg from "pg";
import { type Address, encodeFunctionData, type Hex, keccak256, type PublicClient, toBytes } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentVaultAbi, MarketAbi, TestUSDCAbi } from "../abis";
import { publicClientFor } from "../api/chain/chain";
import { toUsdcUnits } from "../constants";
import { startIndexer, waitForIndexer } from "../scripts/stack/indexer";
import { freePort } from "../scripts/stack/ports";
import { stopChild } from "../scripts/stack/processes";
import { type ChainDriver, chainDriver } from "./helpers/chain";
import { candlesFromTrades, differencesFromChain, dumpTables, indexedCandles } from "./helpers/indexCheck";
import { agentSession, registerAgentTx, tradeRandomly, traderAddresses, vaultAddressOf } from "./helpers/scenario";
import { startTestStack, type TestStack } from "./helpers/stack";
import { newSponsoredAccount } from "./helpers/userOps";

describe("indexer", () => {
  let stack: TestStack;
  let chain: PublicClient;
  let driver: ChainDriver;
  let db: pg.Client;
  const traders = traderAddresses(10);
  const holders: Address[] = [...traders];
  const caughtUp = () => waitForIndexer({ indexerUrl: stack.indexerUrl!, rpcUrl: stack.rpcUrl });
  const markets = () => stack.deployment.markets.map((m) => m.address);

  beforeAll(async () => {
    stack = await startTestStack();
    chain = publicClientFor(stack.rpcUrl);
    driver = chainDriver(stack.rpcUrl, stack.deployment);
    db = new pg.Client(stack.databaseUrl);
    await db.connect();
    await driver.fundTraders(traders, toUsdcUnits(100_000), markets());
  });
  afterAll(async () => {
    await db?.end();
    await stack?.dispose();
  });

  it("equals the chain after 200+ trades by 10 traders in 3 markets, a resolve, a void and claims; a vault's trade and claim carry its manager's user operation", async () => {
    const [a, b, c] = stack.deployment.markets;
    const outcomes = async (address: Address) =>
      (
        await db.query(`SELECT outcomes FROM "${stack.indexerSchema}".market WHERE address = $1`, [
          address.toLowerCase(),
        ])
      ).rows[0].outcomes.length as number;
    await caughtUp();
    const tradeMarkets = await Promise.all(
      [a!, b!, c!].map(async (m) => ({ address: m.address, outcomes: await outcomes(m.address) })),
    );

    const trades = await tradeRandomly({
      driver,
      chain,
      traders,
      markets: tradeMarkets,
      trades: 220,
      perBlock: 12,
      seed: 7,
    });
    expect(trades).toBeGreaterThanOrEqual(200);

    // A holder-to-holder transfer of outcome tokens, and sponsored trades through the EntryPoint.
    const balance = await chain.readContract({
      address: a!.address,
      abi: MarketAbi,
      functionName: "balanceOf",
      args: [traders[0]!, 0n],
    });
    if (balance > 0n)
      await driver.mineBlock([driver.transferTokens(traders[0]!, traders[9]!, a!.address, 0, balance / 2n)]);
    const user = await newSponsoredAccount(stack, chain);
    holders.push(user.account.address);
    await user.mintUsdc(toUsdcUnits(100));
    const sponsored = [await user.buy(a!.address, 1, toUsdcUnits(10)), await user.buy(b!.address, 0, toUsdcUnits(5))];

    // An agent whose manager is a smart account: the user bonds into its vault and the agent buys
    // from it, each in a sponsored user operation.
    const agentUser = await newSponsoredAccount(stack, chain);
    await driver.mineBlock([registerAgentTx(stack.deployment, agentUser.account.address, "Sponsored agent", 0)]);
    const vault = await vaultAddressOf(chain, stack.deployment, agentUser.account.address);
    const send = async (sender: typeof user, calls: { to: Address; data: Hex }[]) => {
      const hash = await sender.bundler.sendUserOperation({ calls });
      const receipt = await sender.bundler.waitForUserOperationReceipt({ hash, timeout: 30_000 });
      expect(receipt.success).toBe(true);
      return hash;
    };
    const vaultCall = (functionName: "bond" | "buy" | "claim", args: unknown[]) => ({
      to: vault,
      data: encodeFunctionData({ abi: AgentVaultAbi, functionName, args: args as never }),
    });
    const bondOp = await send(user, [
      {
        to: stack.deployment.contracts.usdc,
        data: encodeFunctionData({ abi: TestUSDCAbi, functionName: "approve", args: [vault, toUsdcUnits(20)] }),
      },
      vaultCall("bond", [toUsdcUnits(20)]),
    ]);
    const vaultBuyOp = await send(agentUser, [vaultCall("buy", [keccak256(toBytes(a!.slug)), 1n, toUsdcUnits(5), 0n])]);

    // Settle: a resolves to outcome 1, b is voided; everyone claims from both.
    await driver.mineBlock([
      driver.lifecycle(a!.address, "close"),
      driver.lifecycle(a!.address, { resolve: 1 }),
      driver.lifecycle(b!.address, "void"),
    ]);
    await driver.mineBlock(traders.flatMap((t) => [driver.claim(t, a!.address), driver.claim(t, b!.address)]));
    const vaultClaimOp = await send(agentUser, [vaultCall("claim", [keccak256(toBytes(a!.slug))])]);

    await caughtUp();
    expect(await differencesFromChain(db, stack.indexerSchema, chain, stack.deployment, holders)).toEqual([]);

    const schema = stack.indexerSchema;
    const indexedTrades = Number((await db.query(`SELECT count(*) FROM "${schema}".trade`)).rows[0].count);
    expect(indexedTrades).toBe(trades + 3);
    for (const { userOpHash, success } of sponsored) {
      expect(success).toBe(true);
      const op = (await db.query(`SELECT * FROM "${schema}".user_operation WHERE hash = $1`, [userOpHash])).rows[0];
      expect(op).toMatchObject({ success: true, sender: user.account.address.toLowerCase() });
      const linked = (await db.query(`SELECT count(*) FROM "${schema}".trade WHERE user_op_hash = $1`, [userOpHash]))
        .rows[0].count;
      expect(Number(linked)).toBe(1);
    }
    const claims = (await db.query(`SELECT count(*) FROM "${schema}".claim`)).rows[0].count;
    expect(Number(claims)).toBeGreaterThan(0);

    const linkedTo = async (table: string, hash: Hex) =>
      (await db.query(`SELECT * FROM "${schema}"."${table}" WHERE user_op_hash = $1`, [hash])).rows;
    expect(await linkedTo("bond", bondOp)).toMatchObject([
      { staker: user.account.address.toLowerCase(), vault: vault.toLowerCase(), amount: String(toUsdcUnits(20)) },
    ]);
    expect(await linkedTo("trade", vaultBuyOp)).toMatchObject([{ trader: vault.toLowerCase(), is_buy: true }]);
    expect(await linkedTo("claim", vaultClaimOp)).toMatchObject([{ holder: vault.toLowerCase() }]);
  });

  it("keeps candles equal to a recomputation from the trade rows, for every interval", async () => {
    const expected = await candlesFromTrades(db, stack.indexerSchema);
    const actual = await indexedCandles(db, stack.indexerSchema);
    expect(actual.size).toBe(expected.size);
    expect(new Set([...actual.keys()].map((k) => k.split(":")[1]))).toEqual(new Set(["1h", "4h", "1d"]));
    for (const [key, candle] of expected) expect(actual.get(key), key).toEqual(candle);
  });

  it("follows a reorg to the same tables as a clean index of the new chain", async () => {
    const [, , c, d] = stack.deployment.markets;
    const tradeMarkets = [
      { address: c!.address, outcomes: 3 },
      { address: d!.address, outcomes: 4 },
    ];
    const [manager, first, second] = traderAddresses(3, 1_000) as [Address, Address, Address];
    holders.push(first, second);
    const agentMarkets = [
      { ...c!, outcomes: 3 },
      { ...d!, outcomes: 4 },
    ];
    const session = {
      driver,
      chain,
      deployment: stack.deployment,
      manager,
      stakers: [first, second] as [Address, Address],
    };
    await caughtUp();
    const snapshot = await driver.rpc<string>("evm_snapshot");
    await tradeRandomly({ driver, chain, traders, markets: tradeMarkets, trades: 30, perBlock: 5, seed: 11 });
    await agentSession({ ...session, markets: agentMarkets, trades: 6, seed: 21, feeBps: 500 });
    await caughtUp();
    const agentRow = async () =>
      (await db.query(`SELECT * FROM "${stack.indexerSchema}".agent WHERE manager = $1`, [manager.toLowerCase()])).rows;
    expect(await agentRow()).toMatchObject([{ fee_bps: 500, active: false }]);
    const before = Number((await db.query(`SELECT count(*) FROM "${stack.indexerSchema}".trade`)).rows[0].count);

    // Replace those blocks with a longer chain of different trades.
    await driver.rpc("evm_revert", [snapshot]);
    await tradeRandomly({ driver, chain, traders, markets: tradeMarkets, trades: 45, perBlock: 3, seed: 12 });
    // The same agent again, on different terms: c resolves (an unbond claims it) and d closes (an
    // unbond pays its tokens in kind).
    await agentSession({
      ...session,
      markets: agentMarkets,
      trades: 10,
      seed: 22,
      feeBps: 1_000,
      settle: async () => {
        await driver.mineBlock([
          driver.lifecycle(c!.address, "close"),
          driver.lifecycle(c!.address, { resolve: 0 }),
          driver.lifecycle(d!.address, "close"),
        ]);
      },
    });
    await caughtUp();
    expect(await agentRow()).toMatchObject([{ fee_bps: 1_000, active: false }]);
    const unbonds = (
      await db.query(`SELECT * FROM "${stack.indexerSchema}".unbond WHERE staker = ANY($1)`, [
        [first.toLowerCase(), second.toLowerCase()],
      ])
    ).rows;
    expect(unbonds).toHaveLength(3);

    expect(Number((await db.query(`SELECT count(*) FROM "${stack.indexerSchema}".trade`)).rows[0].count)).not.toBe(
      before,
    );
    expect(await differencesFromChain(db, stack.indexerSchema, chain, stack.deployment, holders)).toEqual([]);

    const cleanSchema = `${stack.indexerSchema}_clean`;
    stack.extraSchemas.push(cleanSchema, `${stack.viewsSchema}_clean`);
    const port = await freePort();
    const clean = await startIndexer({
      port,
      databaseUrl: stack.databaseUrl,
      schema: cleanSchema,
      viewsSchema: `${stack.viewsSchema}_clean`,
      rpcUrl: stack.rpcUrl,
      wsUrl: stack.wsUrl,
      deploymentsDir: `${stack.dataDir}/deployments`,
      logFile: `${stack.dataDir}/logs/ponder-clean.log`,
    });
    try {
      expect(await dumpTables(db, stack.indexerSchema)).toEqual(await dumpTables(db, cleanSchema));
    } finally {
      await stopChild(clean.child, 30_000);
    }
  });
});
