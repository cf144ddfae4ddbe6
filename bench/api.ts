// The "api" table: requests/s and p99 at 64 connections for the three busiest reads, beside the
// same queries sent straight to PostgreSQL with pg, as the database's own limit.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseUnits } from "viem";
import { marketQueries } from "../api/db/markets";
import { createPool } from "../api/db/pool";
import { priceQueries } from "../api/db/prices";
import { tradeQueries } from "../api/db/trades";
import { startStack } from "../scripts/stack";
import { startApi } from "../scripts/stack/api";
import { freePort } from "../scripts/stack/ports";
import { stopChild } from "../scripts/stack/processes";
import { waitForIndexer } from "../scripts/stack/indexer";
import { chainDriver } from "../test/helpers/chain";
import { traderAddresses } from "../test/helpers/scenario";
import { load } from "./load";
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
    await driver.fundTraders(traders, parseUnits("1000000", 6), [market!.address]);
    console.error(`api bench: mining ${HOURS} hourly trades...`);
    const first = await driver.mineBlock([driver.buy(traders[0]!, market!.address, 0, parseUnits("10", 6))]);
    const startTime = Number((await driver.rpc<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false])).timestamp);
    for (let hour = 1; hour < HOURS; hour++) {
      await driver.rpc("evm_increaseTime", [3600]);
      await driver.mineBlock([driver.buy(traders[hour % 4]!, market!.address, hour % 2, parseUnits(String(1 + (hour % 7)), 6))]);
    }
    if (!first[0]!.ok) throw new Error("benchmark trade failed");
    await waitForIndexer({ indexerUrl: stack.indexerUrl!, rpcUrl: stack.rpcUrl });

    const from = new Date(startTime * 1000).toISOString();
    const to = new Date((startTime + (HOURS - 1) * 3600) * 1000).toISOString();
    const endpoints = [
      { name: "GET /api/markets", path: "/api/markets" },
      { name: `GET /api/markets/:slug/prices (1h, ${HOURS} points)`, path: `/api/markets/${market!.slug}/prices?interval=1h&from=${from}&to=${to}` },
      { name: "GET /api/trades/recent", path: "/api/trades/recent" },
    ];
    const check = (await (await fetch(`${stack.apiUrl}${endpoints[1]!.path}`)).json()) as { prices?: unknown[] };
    if (check.prices?.length !== HOURS) throw new Error(`price history has ${check.prices?.length} points, expected ${HOURS}`);

    const pool = createPool(stack.databaseUrl, 20);
    const views = stack.viewsSchema;
    const markets = marketQueries(pool, views);
    const prices = priceQueries(pool, views);
    const trades = tradeQueries(pool, views);
    const startSeconds = startTime - (startTime % 3600);
    const raw = [
      () => markets.list({ limit: 50, offset: 0 }),
      async () => {
        await markets.bySlug(market!.slug);
        await prices.candles(market!.address.toLowerCase(), "1h", startSeconds, startSeconds + HOURS * 3600);
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
    const rows: string[][] = [];
    let tool = "";
    try {
      for (const [i, endpoint] of endpoints.entries()) {
        // A short warm-up first, so that JIT compilation and first connections do not count.
        await load(`${stack.apiUrl}${endpoint.path}`, CONNECTIONS, 2);
        const cached = await load(`${stack.apiUrl}${endpoint.path}`, CONNECTIONS, SECONDS);
        await load(`${uncachedApi.url}${endpoint.path}`, CONNECTIONS, 2);
        const uncached = await load(`${uncachedApi.url}${endpoint.path}`, CONNECTIONS, SECONDS);
        const direct = await queryLoop(raw[i]!, CONNECTIONS, SECONDS);
        tool = cached.tool;
        rows.push([
          endpoint.name,
          `${Math.round(cached.requestsPerSecond)}`,
          `${cached.p99Ms.toFixed(1)} ms`,
          `${Math.round(uncached.requestsPerSecond)} (p99 ${uncached.p99Ms.toFixed(1)} ms)`,
          `${Math.round(direct)}`,
          (cached.requestsPerSecond / direct).toFixed(2),
          (uncached.requestsPerSecond / direct).toFixed(2),
        ]);
      }
    } finally {
      await stopChild(uncachedApi.child);
      await pool.end();
    }
    printTable(
      `api (one API process, ${CONNECTIONS} connections via ${tool}, ${SECONDS} s each; targets: /api/markets >= 5,000 req/s with p99 <= 20 ms, every endpoint >= 0.5 of raw)`,
      ["endpoint", "req/s", "p99", "req/s, cache off", "raw pg req/s", "api / raw", "cache off / raw"],
      rows,
    );
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The same work as one request, by `workers` concurrent loops for `seconds`: completions per second. */
async function queryLoop(request: () => Promise<unknown>, workers: number, seconds: number): Promise<number> {
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < deadline) {
        await request();
        done++;
      }
    }),
  );
  return done / seconds;
}
