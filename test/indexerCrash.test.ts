// Crash recovery: the indexer killed with SIGKILL in the middle of a backfill and started again
// on the same schema ends with the same tables as a clean run.

import pg from "pg";
import type { PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicClientFor } from "../api/chain/chain";
import { toUsdcUnits } from "../constants";
import { indexedBlock, spawnIndexer, startIndexer } from "../scripts/stack/indexer";
import { freePort } from "../scripts/stack/ports";
import { stopChild, waitUntil } from "../scripts/stack/processes";
import { chainDriver } from "./helpers/chain";
import { dumpTables } from "./helpers/indexCheck";
import { tradeRandomly, traderAddresses } from "./helpers/scenario";
import { startTestStack, type TestStack } from "./helpers/stack";

describe("indexer crash recovery", () => {
  let stack: TestStack;
  let chain: PublicClient;
  let db: pg.Client;
  let lastTradeBlock = 0;

  beforeAll(async () => {
    stack = await startTestStack({ withoutIndexer: true });
    chain = publicClientFor(stack.rpcUrl);
    db = new pg.Client(stack.databaseUrl);
    await db.connect();
    const driver = chainDriver(stack.rpcUrl, stack.deployment);
    const traders = traderAddresses(20);
    const markets = stack.deployment.markets.map((m) => m.address);
    await driver.fundTraders(traders, toUsdcUnits(1_000_000), markets);
    const tradeMarkets = stack.deployment.markets.map((m, i) => ({ address: m.address, outcomes: [2, 2, 3, 4][i]! }));
    await tradeRandomly({ driver, chain, traders, markets: tradeMarkets, trades: 3_000, perBlock: 100, seed: 3 });
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
    } finally {
      await stopChild(restarted.child, 30_000);
      await stopChild(clean.child, 30_000);
    }
  });
});
