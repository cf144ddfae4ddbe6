// The "stream" table: 10,000 SSE clients on one API process. Latency runs from a trade row
// becoming visible in the views (Ponder's commit notification) to a client receiving its event,
// measured on every 20th client (the rest count their events, to check that all of them get
// everything); memory per connection is the API's resident memory with the clients connected,
// less before, over their number.
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { parseUnits } from "viem";
import { startStack, type Stack } from "../scripts/stack";
import { chainDriver, prng, type ChainDriver } from "../test/helpers/chain";
import { traderAddresses } from "../test/helpers/scenario";
import { median, percentile, printTable } from "./stats";

const CLIENTS = Number(process.env.BENCH_STREAM_CLIENTS ?? 10_000);
const WORKERS = 4;
const SAMPLE_EVERY = 20;
const SLOW_TRADES = 100;
const LOAD_RATE = 100;
const LOAD_SECONDS = 10;
const LOAD_BLOCKS_PER_SECOND = 4;

type Report = { samples: [string, number][]; minTrades: number; maxTrades: number };

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function benchStream() {
  const dataDir = mkdtempSync(join(tmpdir(), "pm-bench-"));
  const viewsSchema = `bench_stream_${Date.now().toString(36)}`;
  const stack = await startStack({
    dataDir,
    deploymentsDir: join(dataDir, "deployments"),
    databaseUrl: process.env.DATABASE_URL,
    blockTimeMs: 0,
    viewsSchema,
    apiEnv: { LOG_LEVEL: "warn", STREAM_MAX_CLIENTS: String(CLIENTS + 100) },
  });
  const db = new pg.Client(stack.databaseUrl);
  await db.connect();
  const workers: ChildProcess[] = [];
  try {
    const driver = chainDriver(stack.rpcUrl, stack.deployment);
    const traders = traderAddresses(50, 0x500);
    const markets = stack.deployment.markets.map((m) => m.address);
    await driver.fundTraders(traders, parseUnits("10000000", 6), markets);
    const visible = await trackVisibility(db, viewsSchema);
    const apiPid = stack.children.find((child) => child.name === "api")!.process.pid!;
    const api = new URL(stack.apiUrl!);

    await sleep(2_000);
    const rssBefore = residentKb(apiPid);
    console.error(`stream bench: connecting ${CLIENTS} clients...`);
    const connectStarted = now();
    for (let i = 0; i < WORKERS; i++) {
      workers.push(fork(join(import.meta.dirname, "streamClients.ts"), { execArgv: ["--import", "tsx"], stdio: "inherit" }));
    }
    await Promise.all(
      workers.map((worker, i) =>
        ask(worker, {
          cmd: "connect",
          host: api.hostname,
          port: Number(api.port),
          count: Math.floor(CLIENTS / WORKERS) + (i < CLIENTS % WORKERS ? 1 : 0),
          sampleEvery: SAMPLE_EVERY,
        }),
      ),
    );
    const connectSeconds = (now() - connectStarted) / 1000;
    await sleep(3_000);
    const rssConnected = residentKb(apiPid);

    console.error(`stream bench: ${SLOW_TRADES} trades one at a time...`);
    const random = prng(5);
    const trade = () => {
      const market = random.int(2);
      return driver.buy(random.pick(traders), markets[market]!, random.int(2), parseUnits(String(1 + random.int(20)), 6));
    };
    for (let i = 0; i < SLOW_TRADES; i++) {
      await mine(driver, [trade()]);
      await sleep(200);
    }
    const slow = await collect(workers, visible, SLOW_TRADES);

    console.error(`stream bench: ${LOAD_RATE} trades/s for ${LOAD_SECONDS} s...`);
    const blocks = LOAD_SECONDS * LOAD_BLOCKS_PER_SECOND;
    const perBlock = LOAD_RATE / LOAD_BLOCKS_PER_SECOND;
    const loadStarted = now();
    for (let block = 0; block < blocks; block++) {
      await sleep(loadStarted + (block * 1000) / LOAD_BLOCKS_PER_SECOND - now());
      await mine(driver, Array.from({ length: perBlock }, trade));
    }
    const achievedRate = (blocks * perBlock) / ((now() - loadStarted) / 1000);
    const rssLoaded = residentKb(apiPid);
    const loaded = await collect(workers, visible, blocks * perBlock);
    const dropped = await droppedClients(stack);

    const perConnectionKb = (rssConnected - rssBefore) / CLIENTS;
    printTable(
      `stream (${CLIENTS} clients on one API process, ${WORKERS} client processes; latency on every ${SAMPLE_EVERY}th client, from the trade's commit notification to its event)`,
      ["measure", "value", "target"],
      [
        ["clients connected", `${CLIENTS} in ${connectSeconds.toFixed(1)} s`, ""],
        ["memory per connection (API RSS)", `${perConnectionKb.toFixed(1)} KB (${mb(rssBefore)} -> ${mb(rssConnected)} MB; ${mb(rssLoaded)} MB after load)`, "<= 30 KB"],
        [`visible -> received, one trade per block (~5/s, ${slow.latencies.length} samples)`, `p50 ${median(slow.latencies).toFixed(1)} ms, p99 ${percentile(slow.latencies, 99).toFixed(1)} ms`, "p99 <= 250 ms"],
        [`visible -> received, ${achievedRate.toFixed(0)} trades/s (${loaded.latencies.length} samples)`, `p50 ${median(loaded.latencies).toFixed(1)} ms, p99 ${percentile(loaded.latencies, 99).toFixed(1)} ms`, "p99 <= 250 ms"],
        ["trades received per client (slow / load phase)", `${slow.minTrades}-${slow.maxTrades} of ${SLOW_TRADES} / ${loaded.minTrades}-${loaded.maxTrades} of ${blocks * perBlock}`, "all"],
        ["slow clients dropped", String(dropped), "0"],
      ],
    );
  } finally {
    for (const worker of workers) worker.send({ cmd: "close" });
    await db.end();
    await stack.stop();
    await dropFeed(stack, viewsSchema);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function mine(driver: ChainDriver, txs: Parameters<ChainDriver["mineBlock"]>[0]) {
  const results = await driver.mineBlock(txs);
  if (results.some((r) => !r.ok)) throw new Error("a benchmark trade reverted");
}

/** When each trade became visible: the arrival of the notification of the commit that wrote it. */
async function trackVisibility(db: pg.Client, views: string): Promise<Map<string, number>> {
  const visible = new Map<string, number>();
  let lastBlock = "0";
  let reading = Promise.resolve();
  db.on("notification", () => {
    const at = now();
    reading = reading.then(async () => {
      const { rows } = await db.query(`SELECT id, block_number::text FROM "${views}".trade WHERE block_number > $1`, [lastBlock]);
      for (const row of rows) {
        if (!visible.has(row.id)) visible.set(row.id, at);
        if (BigInt(row.block_number) > BigInt(lastBlock)) lastBlock = row.block_number;
      }
    });
  });
  await db.query(`LISTEN "${views}_live_query"`);
  return visible;
}

async function collect(workers: ChildProcess[], visible: Map<string, number>, expected: number) {
  // Give the last events time to arrive everywhere.
  await sleep(3_000);
  const reports = await Promise.all(workers.map((worker) => ask<Report>(worker, { cmd: "report" })));
  const latencies: number[] = [];
  for (const report of reports) {
    for (const [id, receivedAt] of report.samples) {
      const visibleAt = visible.get(id);
      if (visibleAt !== undefined) latencies.push(receivedAt - visibleAt);
    }
  }
  if (latencies.length === 0) throw new Error(`no trade event arrived (expected ${expected}; ${visible.size} visible; ${JSON.stringify(reports.map((r) => [r.samples.length, r.minTrades, r.maxTrades]))})`);
  return {
    latencies,
    minTrades: Math.min(...reports.map((r) => r.minTrades)),
    maxTrades: Math.max(...reports.map((r) => r.maxTrades)),
  };
}

function ask<T = unknown>(worker: ChildProcess, message: object): Promise<T> {
  return new Promise((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`a client process exited (${code})`));
    worker.once("exit", exited);
    worker.once("message", (reply) => {
      worker.off("exit", exited);
      resolve(reply as T);
    });
    worker.send(message);
  });
}

/** Resident memory of a process and its descendants (the API runs under tsx's launcher), in KB. */
function residentKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  let kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  for (const child of children ? children.split(/\s+/) : []) kb += residentKb(Number(child));
  return kb;
}

const mb = (kb: number) => (kb / 1024).toFixed(0);

async function droppedClients(stack: Stack): Promise<number> {
  const metrics = await (await fetch(`${stack.apiUrl}/metrics`)).text();
  return Number(/^stream_slow_clients_dropped (\d+)/m.exec(metrics)?.[1] ?? NaN);
}

/** The benchmark's views and its stream rows, on a shared database. */
async function dropFeed(stack: Stack, views: string) {
  if (stack.databaseEmbedded) return;
  const client = new pg.Client(stack.databaseUrl);
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${stack.indexerSchema}" CASCADE`);
  await client.query(`DROP SCHEMA IF EXISTS "${views}" CASCADE`);
  await client.query("DELETE FROM api.stream_event WHERE feed = $1", [views]);
  await client.query("DELETE FROM api.stream_trade WHERE feed = $1", [views]);
  await client.end();
}
