// The "indexer" table: backfill throughput of 20,000 trades against a bare Ponder app on the same
// chain, and the latency from a trade being mined to its row in the views schema.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { Address } from "viem";
import { toUsdcUnits } from "../constants";
import { type Stack, startStack } from "../scripts/stack";
import { spawnIndexer, waitForIndexer } from "../scripts/stack/indexer";
import { freePort } from "../scripts/stack/ports";
import { stopChild } from "../scripts/stack/processes";
import { chainDriver, prng, TX_GAS } from "../test/helpers/chain";
import { traderAddresses } from "../test/helpers/scenario";
import { dropSchemas } from "./database";
import { cpuSeconds, median, peakMemoryMb, percentile, printTable } from "./stats";

const TRADES = Number(process.env.BENCH_TRADES ?? 20_000);
const PER_BLOCK = 200;
const LATENCY_SAMPLES = 150;

export async function benchIndexer() {
  const dataDir = mkdtempSync(join(tmpdir(), "pm-bench-"));
  const stack = await startStack({
    dataDir,
    deploymentsDir: join(dataDir, "deployments"),
    databaseUrl: process.env.DATABASE_URL,
    blockTimeMs: 0,
    withoutIndexer: true,
  });
  const db = new pg.Client(stack.databaseUrl);
  await db.connect();
  const schemas: string[] = [];
  try {
    const driver = chainDriver(stack.rpcUrl, stack.deployment);
    const traders = traderAddresses(50, 0x100);
    const markets = stack.deployment.markets.map((m) => m.address);
    const outcomeCounts = [2, 2, 3, 4];
    await driver.fundTraders(traders, toUsdcUnits(10_000_000), markets);
    console.error(`indexer bench: mining ${TRADES} trades...`);
    const random = prng(1);
    for (let sent = 0; sent < TRADES; sent += PER_BLOCK) {
      const batch = Array.from({ length: Math.min(PER_BLOCK, TRADES - sent) }, () => {
        const market = random.int(markets.length);
        return driver.buy(
          random.pick(traders),
          markets[market]!,
          random.int(outcomeCounts[market]!),
          toUsdcUnits(1 + random.int(20)),
        );
      });
      const results = await driver.mineBlock(batch);
      if (results.some((r) => !r.ok)) throw new Error("a benchmark trade reverted");
    }
    await driver.rpc("anvil_mine", ["0x28"]);
    const node = await nodeServingTime(driver.rpc, [
      stack.deployment.contracts.marketFactory,
      ...markets,
      stack.deployment.contracts.entryPoint,
      stack.deployment.contracts.usdc,
    ]);

    const run = async (name: string, root?: string) => {
      const schema = `bench_${name}_${Date.now().toString(36)}`;
      schemas.push(schema, `${schema}_views`);
      const port = await freePort();
      const logFile = join(dataDir, "logs", `${schema}.log`);
      const child = spawnIndexer({
        port,
        databaseUrl: stack.databaseUrl,
        schema,
        viewsSchema: `${schema}_views`,
        rpcUrl: stack.rpcUrl,
        wsUrl: stack.wsUrl,
        deploymentsDir: join(dataDir, "deployments"),
        logFile,
        root,
        logLevel: "info",
      });
      const started = performance.now();
      await waitForIndexer({ indexerUrl: `http://127.0.0.1:${port}`, rpcUrl: stack.rpcUrl, child, timeoutMs: 600_000 });
      const wallSeconds = (performance.now() - started) / 1000;
      const backfillMs = backfillDuration(logFile);
      const rows = Number((await db.query(`SELECT count(*) FROM "${schema}".trade`)).rows[0].count);
      if (rows !== TRADES) throw new Error(`${name} indexed ${rows} trades, expected ${TRADES}`);
      const cpu = cpuSeconds(child.process.pid!);
      const memory = await peakMemoryMb(child.process.pid!);
      return {
        child,
        port,
        schema,
        views: `${schema}_views`,
        backfillMs,
        wallSeconds,
        cpu,
        memory,
        rate: TRADES / (backfillMs / 1000),
      };
    };

    const bare = await run("bare", join(import.meta.dirname, "bare-indexer"));
    await stopChild(bare.child, 30_000);
    const ours = await run("ours");
    const latencies = await measureLatency(stack, db, ours.views, traders[0]!, markets[0]!);
    await stopChild(ours.child, 30_000);

    const ratio = ours.rate / bare.rate;
    printTable(
      `indexer (${TRADES} trades, ${PER_BLOCK} per block; backfill time from Ponder's own log)`,
      ["measure", "value", "target"],
      [
        [
          "backfill, this indexer",
          `${Math.round(ours.rate)} trades/s (${(ours.backfillMs / 1000).toFixed(1)} s; ${ours.wallSeconds.toFixed(1)} s from spawn to ready)`,
          ">= 5,000 trades/s",
        ],
        [
          "backfill, bare Ponder (same events, 1 row each)",
          `${Math.round(bare.rate)} trades/s (${(bare.backfillMs / 1000).toFixed(1)} s)`,
          "the framework's limit",
        ],
        ["this / bare", ratio.toFixed(2), ">= 0.7"],
        [
          "indexer CPU from spawn to ready, this / bare",
          `${ours.cpu.toFixed(1)} s in ${ours.wallSeconds.toFixed(1)} s / ${bare.cpu.toFixed(1)} s in ${bare.wallSeconds.toFixed(1)} s`,
          "",
        ],
        [
          "anvil alone serving the same logs and blocks",
          `${node.seconds.toFixed(1)} s for ${node.megabytes} MB (${Math.round(TRADES / node.seconds)} trades/s)`,
          "",
        ],
        ["peak memory (RSS), this indexer / bare", `${ours.memory} MB / ${bare.memory} MB`, ""],
        [
          `mined -> visible in views.trade (${latencies.length} trades)`,
          `p50 ${median(latencies).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
          "p50 <= 50 ms",
        ],
      ],
    );
  } finally {
    await db.end();
    await stack.stop();
    await dropSchemas(stack, schemas);
    if (process.env.KEEP_STACK_DATA) console.error(`indexer bench: logs kept in ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * What the backfill asks of the chain node, without Ponder: every log of the indexed contracts in
 * one request, then every block holding one, with its transactions, eight at a time (as Ponder's
 * eight loopback URLs allow). Tells whether the node or the indexer sets the backfill's pace.
 */
async function nodeServingTime(rpc: <T>(method: string, params?: unknown[]) => Promise<T>, addresses: Address[]) {
  const started = performance.now();
  const logs = await rpc<{ blockNumber: string }[]>("eth_getLogs", [
    { address: addresses, fromBlock: "0x0", toBlock: "latest" },
  ]);
  const numbers = [...new Set(logs.map((log) => log.blockNumber))];
  const blocks: unknown[] = [];
  for (let i = 0; i < numbers.length; i += 8) {
    blocks.push(
      ...(await Promise.all(numbers.slice(i, i + 8).map((number) => rpc("eth_getBlockByNumber", [number, true])))),
    );
  }
  const seconds = (performance.now() - started) / 1000;
  const bytes = JSON.stringify(logs).length + JSON.stringify(blocks).length;
  return { seconds, megabytes: Math.round(bytes / 1e6) };
}

/** Milliseconds Ponder reports for the whole backfill ("Completed backfill indexing"). */
function backfillDuration(logFile: string): number {
  for (const line of readFileSync(logFile, "utf8").split("\n")) {
    if (!line.includes("Completed backfill indexing")) continue;
    return Number(JSON.parse(line).duration);
  }
  throw new Error(`no backfill completion in ${logFile}`);
}

/** One trade at a time on automine: from the send returning (mined) to the row being readable. */
async function measureLatency(
  stack: Stack,
  db: pg.Client,
  views: string,
  trader: Address,
  market: Address,
): Promise<number[]> {
  const driver = chainDriver(stack.rpcUrl, stack.deployment);
  const latencies: number[] = [];
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    const hash = await driver.rpc<string>("eth_sendTransaction", [
      { ...driver.buy(trader, market, i % 2, toUsdcUnits(1)), gas: TX_GAS },
    ]);
    const mined = performance.now();
    for (;;) {
      const { rowCount } = await db.query(`SELECT 1 FROM "${views}".trade WHERE tx_hash = $1`, [hash]);
      if (rowCount) break;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    latencies.push(performance.now() - mined);
  }
  return latencies;
}
