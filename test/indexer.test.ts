// The indexer against the real stack: a busy trading session, settlement and claims, a reorg, and
// candles; the tables must equal the contracts' own views.

import pg from "pg";
import type { Address, PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicClientFor } from "../api/chain/chain";
import { toUsdcUnits } from "../constants";
import { startIndexer, waitForIndexer } from "../scripts/stack/indexer";
import { freePort } from "../scripts/stack/ports";
import { stopChild } from "../scripts/stack/processes";
import { type ChainDriver, chainDriver } from "./helpers/chain";
import { candlesFromTrades, differencesFromChain, dumpTables, indexedCandles } from "./helpers/indexCheck";
import { tradeRandomly, traderAddresses } from "./helpers/scenario";
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

  it("equals the chain after 200+ trades by 10 traders in 3 markets, a resolve, a void and claims", async () => {
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
      abi: (await import("../abis")).MarketAbi,
      functionName: "balanceOf",
      args: [traders[0]!, 0n],
    });
    if (balance > 0n)
      await driver.mineBlock([driver.transferTokens(traders[0]!, traders[9]!, a!.address, 0, balance / 2n)]);
    const user = await newSponsoredAccount(stack, chain);
    holders.push(user.account.address);
    await user.mintUsdc(toUsdcUnits(100));
    const sponsored = [await user.buy(a!.address, 1, toUsdcUnits(10)), await user.buy(b!.address, 0, toUsdcUnits(5))];

    // Settle: a resolves to outcome 1, b is voided; everyone claims from both.
    await driver.mineBlock([
      driver.lifecycle(a!.address, "close"),
      driver.lifecycle(a!.address, { resolve: 1 }),
      driver.lifecycle(b!.address, "void"),
    ]);
    await driver.mineBlock(traders.flatMap((t) => [driver.claim(t, a!.address), driver.claim(t, b!.address)]));

    await caughtUp();
    expect(await differencesFromChain(db, stack.indexerSchema, chain, stack.deployment, holders)).toEqual([]);

    const schema = stack.indexerSchema;
    const indexedTrades = Number((await db.query(`SELECT count(*) FROM "${schema}".trade`)).rows[0].count);
    expect(indexedTrades).toBe(trades + 2);
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
    await caughtUp();
    const snapshot = await driver.rpc<string>("evm_snapshot");
    await tradeRandomly({ driver, chain, traders, markets: tradeMarkets, trades: 30, perBlock: 5, seed: 11 });
    await caughtUp();
    const before = Number((await db.query(`SELECT count(*) FROM "${stack.indexerSchema}".trade`)).rows[0].count);

    // Replace those blocks with a longer chain of different trades.
    await driver.rpc("evm_revert", [snapshot]);
    await tradeRandomly({ driver, chain, traders, markets: tradeMarkets, trades: 45, perBlock: 3, seed: 12 });
    await caughtUp();

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
