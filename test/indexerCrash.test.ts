// Crash recovery: the indexer killed with SIGKILL in the middle of a backfill and started again
// on the same schema ends with the same tables as a clean run.

import pg from "pg";
import type { Address, PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicClientFor } from "../api/chain/chain";
import { toUsdcUnits } from "../constants";
import { indexedBlock, spawnIndexer, startIndexer } from "../scripts/stack/indexer";
import { freePort } from "../scripts/stack/ports";
import { stopChild, waitUntil } from "../scripts/stack/processes";
import { chainDriver } from "./helpers/chain";
import { differencesFromChain, dumpTables } from "./helpers/indexCheck";
import { agentSession, tradeRandomly, traderAddresses } from "./helpers/scenario";
import { startTestStack, type TestStack } from "./helpers/stack";

describe("indexer crash recovery", () => {
  let stack: TestStack;
  let chain: PublicClient;
  let db: pg.Client;
  let lastTradeBlock = 0;
  const traders = traderAddresses(20);
  const [manager, ...stakers] = traderAddresses(3, 1_000) as [Address, Address, Address];

  beforeAll(async () => {
    stack = await startTestStack({ withoutIndexer: true });
    chain = publicClientFor(stack.rpcUrl);
    db = new pg.Client(stack.databaseUrl);
    await db.connect();
    const driver = chainDriver(stack.rpcUrl, stack.deployment);
    const markets = stack.deployment.markets.map((m) => m.address);
    await driver.fundTraders(traders, toUsdcUnits(1_000_000), markets);
    const tradeMarkets = stack.deployment.markets.map((m, i) => ({ ...m, outcomes: [2, 2, 3, 4][i]! }));
    const crowd = { driver, chain, traders, markets: tradeMarkets, perBlock: 100 };
    await tradeRandomly({ ...crowd, trades: 1_500, seed: 3 });
    // An agent amid the crowd: its vault trades in every market, the first resolves before the
    // last unbonds and the second closes (its tokens paid in kind); then more trades.
    const [first, second] = tradeMarkets;
    await agentSession({
      driver,
      chain,
      deployment: stack.deployment,
      manager,
      stakers: stakers as [Address, Address],
      markets: tradeMarkets,
      trades: 16,
      seed: 4,
      feeBps: 1_000,
      settle: async () => {
        await tradeRandomly({ ...crowd, trades: 1_500, seed: 5 });
        await driver.mineBlock([
          driver.lifecycle(first!.address, "close"),
          driver.lifecycle(first!.address, { resolve: 1 }),
          driver.lifecycle(second!.address, "close"),
        ]);
      },
    });
    lastTradeBlock = await driver.blockNumber();
    // Bury the trades under more than 30 blocks, so that Ponder backfills them as final.
    await driver.rpc("anvil_mine", ["0x28"]);
  }, 300_000);
  afterAll(async () => {
    await db?.end();
    await stack?.dispose();
  });

  const indexerOptions = async (schema: string) => {
    stack.extraSchemas.push(schema, `${schema}_views`);
    return {
      port: await freePort(),
      databaseUrl: stack.databaseUrl,
      schema,
      viewsSchema: `${schema}_views`,
      rpcUrl: stack.rpcUrl,
      wsUrl: stack.wsUrl,
      deploymentsDir: `${stack.dataDir}/deployments`,
      logFile: `${stack.dataDir}/logs/${schema}.log`,
    };
  };

  it("restarts after SIGKILL mid-backfill and matches a clean run", async () => {
    const schema = `${stack.indexerSchema}_crash`;
    const options = await indexerOptions(schema);
    const first = spawnIndexer(options);
    const url = `http://127.0.0.1:${options.port}`;
    // Kill as soon as the backfill has written part of the history, but not all of it.
    await waitUntil(
      "partial backfill",
      async () => {
        const block = await indexedBlock(url);
        return block > stack.deployment.startBlock && block < lastTradeBlock;
      },
      { child: first, timeoutMs: 60_000 },
    );
    first.process.kill("SIGKILL");
    await new Promise((resolve) => first.process.once("exit", resolve));
    const killedAt = Number((await db.query(`SELECT count(*) FROM "${schema}".trade`)).rows[0].count);

    const restarted = await startIndexer({ ...options, port: await freePort(), readyTimeoutMs: 240_000 });
    const clean = await startIndexer({
      ...(await indexerOptions(`${stack.indexerSchema}_clean`)),
      readyTimeoutMs: 240_000,
    });
    try {
      const recovered = await dumpTables(db, schema);
      expect(killedAt).toBeLessThan(recovered.trade!.length);
      expect(recovered.trade!.length).toBeGreaterThanOrEqual(3_000);
      expect(recovered).toEqual(await dumpTables(db, `${stack.indexerSchema}_clean`));
      expect(recovered.bond).toHaveLength(2);
      expect(recovered.unbond).toHaveLength(3);
      expect(
        await differencesFromChain(db, schema, chain, stack.deployment, [...traders, ...stakers, manager]),
      ).toEqual([]);
    } finally {
      await stopChild(restarted.child, 30_000);
      await stopChild(clean.child, 30_000);
    }
  });
});
