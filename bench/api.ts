// The "api" table: requests/s and p99 at 64 connections for the three busiest reads, beside the
// same queries sent straight to PostgreSQL with pg, as the database's own limit.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { marketQueries } from "../api/db/markets";
import { createPool } from "../api/db/pool";
import { priceQueries } from "../api/db/prices";
import { tradeQueries } from "../api/db/trades";
import { toUsdcUnits } from "../constants";
import { startStack } from "../scripts/stack";
import { startApi } from "../scripts/stack/api";
import { waitForIndexer } from "../scripts/stack/indexer";
import { freePort } from "../scripts/stack/ports";
import { startTypeScriptChild, stopChild, waitUntil } from "../scripts/stack/processes";
import { chainDriver } from "../test/helpers/chain";
import { traderAddresses } from "../test/helpers/scenario";
import { dropSchemas } from "./database";
import { FLOOR_COLUMNS, queryLoop, READ_COLUMNS, readRow, warmedLoad } from "./readLoad";
import { printTable } from "./stats";

const CONNECTIONS = 64;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const HOURS = 30 * 24;

export async function benchApi() {
  const dataDir = mkdtempSync(join(tmpdir(), "pm-bench-"));
  const stack = await startStack({
    dataDir,
    deploymentsDir: join(dataDir, "deployments"),
    databaseUrl: process.env.DATABASE_URL,
    blockTimeMs: 0,
    viewsSchema: `bench_views_${Date.now().toString(36)}`,
  });
  try {
    // 30 days of history: one trade an hour in the first market.
    const driver = chainDriver(stack.rpcUrl, stack.deployment);
    const [market] = stack.deployment.markets;
    const traders = traderAddresses(4, 0x900);
    await driver.fundTraders(traders, toUsdcUnits(1_000_000), [market!.address]);
    console.error(`api bench: mining ${HOURS} hourly trades...`);
    const first = await driver.mineBlock([driver.buy(traders[0]!, market!.address, 0, toUsdcUnits(10))]);
    const startTime = Number(
      (await driver.rpc<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false])).timestamp,
    );
    for (let hour = 1; hour < HOURS; hour++) {
      await driver.rpc("evm_increaseTime", [3600]);
      await driver.mineBlock([driver.buy(traders[hour % 4]!, market!.address, hour % 2, toUsdcUnits(1 + (hour % 7)))]);
    }
    if (!first[0]!.ok) throw new Error("benchmark trade failed");
    await waitForIndexer({ indexerUrl: stack.indexerUrl!, rpcUrl: stack.rpcUrl });

    const from = new Date(startTime * 1000).toISOString();
    const to = new Date((startTime + (HOURS - 1) * 3600) * 1000).toISOString();
    const endpoints = [
      { name: "GET /api/markets", path: "/api/markets" },
      {
        name: `GET /api/markets/:slug/prices (1h, ${HOURS} points)`,
        path: `/api/markets/${market!.slug}/prices?interval=1h&from=${from}&to=${to}`,
      },
      { name: "GET /api/trades/recent", path: "/api/trades/recent" },
    ];
    const check = (await (await fetch(`${stack.apiUrl}${endpoints[1]!.path}`)).json()) as { prices?: unknown[] };
    if (check.prices?.length !== HOURS)
      throw new Error(`price history has ${check.prices?.length} points, expected ${HOURS}`);

    const pool = createPool({ databaseUrl: stack.databaseUrl, max: 20, logger: pino({ level: "silent" }) });
    const views = stack.viewsSchema;
    const markets = marketQueries(pool, views);
    const prices = priceQueries(pool, views);
    const trades = tradeQueries(pool, views);
    const startSeconds = startTime - (startTime % 3600);
    const raw = [
      () => markets.list({ limit: 50, offset: 0 }),
      async () => {
        await markets.bySlug(market!.slug);
        await prices.candles(market!.address.toLowerCase(), 2, "1h", startSeconds, startSeconds + (HOURS - 1) * 3600);
      },
      () => trades.recent(20),
    ];

    // The same API with its read cache off, to show what the cache is worth.
    const uncachedApi = await startApi({
      port: await freePort(),
      databaseUrl: stack.databaseUrl,
      viewsSchema: views,
      chainId: stack.deployment.chainId,
      logFile: join(dataDir, "logs", "api-uncached.log"),
      env: { READ_CACHE_TTL_MS: "0" },
    });
    // The same queries behind bare node:http: the floor of any HTTP answer of them on this machine.
    const floorPort = await freePort();
    const floor = startTypeScriptChild("read floor", join(import.meta.dirname, "readFloor.ts"), {
      logFile: join(dataDir, "logs", "read-floor.log"),
      env: { DATABASE_URL: stack.databaseUrl, VIEWS_SCHEMA: views, PORT: String(floorPort) },
    });
    const floorUrl = `http://127.0.0.1:${floorPort}`;
    const rows: string[][] = [];
    let tool = "";
    try {
      await waitUntil("read floor", async () => (await fetch(`${floorUrl}${endpoints[0]!.path}`)).ok, {
        child: floor,
        timeoutMs: 30_000,
      });
      for (const [i, endpoint] of endpoints.entries()) {
        const cached = await warmedLoad(`${stack.apiUrl}${endpoint.path}`, CONNECTIONS, SECONDS);
        const uncached = await warmedLoad(`${uncachedApi.url}${endpoint.path}`, CONNECTIONS, SECONDS);
        const bare = await warmedLoad(`${floorUrl}${endpoint.path}`, CONNECTIONS, SECONDS);
        const direct = await queryLoop(raw[i]!, CONNECTIONS, SECONDS);
        tool = cached.tool;
        rows.push(readRow(endpoint.name, cached, uncached, direct, bare));
      }
    } finally {
      await stopChild(floor);
      await stopChild(uncachedApi.child);
      await pool.end();
    }
    printTable(
      `api (one API process, ${CONNECTIONS} connections via ${tool}, ${SECONDS} s each; targets: /api/markets >= 5,000 req/s with p99 <= 20 ms, every endpoint >= 0.5 of raw)`,
      [...READ_COLUMNS, ...FLOOR_COLUMNS],
      rows,
    );
  } finally {
    await stack.stop();
    await dropSchemas(stack, [stack.indexerSchema, stack.viewsSchema]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
