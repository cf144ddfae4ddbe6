// The "stream" table: 10,000 SSE clients on one API process. Latency runs from a trade row
// becoming visible in the views (Ponder's commit notification) to a client receiving its event,
// measured on 500 probe clients in a process of their own, connected between the others so that
// they sit all along the fan-out's order (the API writes to its clients in the order they came);
// the other clients count their events (see streamClients.ts), to check that every client gets
// everything. Memory per connection is the API's resident memory with the clients connected,
// less before, over their number. First, before the stack starts, the socket floor (socketFloor.ts)
// gives the fastest any fan-out to as many clients can be on this machine.

import { type ChildProcess, fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { setPriority, tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { toUsdcUnits } from "../constants";
import { startStack } from "../scripts/stack";
import { chainDriver, prng } from "../test/helpers/chain";
import { traderAddresses } from "../test/helpers/scenario";
import { socketFanoutFloor } from "./socketFloor";
import { cpuSeconds, median, percentile, printTable, residentKb } from "./stats";
import {
  ask,
  collect,
  delayBetween,
  dropFeed,
  fanoutBetween,
  mb,
  mine,
  now,
  pollReads,
  sleep,
  startApiCluster,
  streamMetrics,
  trackVisibility,
} from "./streamHarness";

const CLIENTS = Number(process.env.BENCH_STREAM_CLIENTS ?? 10_000);
/** A first pass with this many clients shows how latency grows with their number. */
const FEW_CLIENTS = 1_000;
/** Processes of counting clients, besides the one of probes. */
const COUNTER_WORKERS = 3;
const PROBES = 500;
/** Probes connect in this many groups, spread evenly between the counting clients. */
const PROBE_GROUPS = 10;
const SLOW_TRADES = 100;
const LOAD_RATE = 100;
const LOAD_SECONDS = Number(process.env.BENCH_STREAM_LOAD_SECONDS ?? 10);
const LOAD_BLOCKS_PER_SECOND = 4;
/** About the size of one trade event's frame, for the socket floor. */
const EVENT_BYTES = 650;
/** API processes sharing one port in the scale-out phase (node:cluster, bench/apiCluster.ts). */
const SCALE_OUT = 2;

export async function benchStream() {
  console.error(`stream bench: the socket floor, ${CLIENTS} plain sockets...`);
  const floorEvents = [1, LOAD_RATE / LOAD_BLOCKS_PER_SECOND, LOAD_RATE];
  const floor = await socketFanoutFloor(
    CLIENTS,
    floorEvents.map((events) => events * EVENT_BYTES),
  );
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
    await driver.fundTraders(traders, toUsdcUnits(10_000_000), markets);
    const visible = await trackVisibility(db, viewsSchema);
    const apiPid = stack.children.find((child) => child.name === "api")!.process.pid!;
    let api = new URL(stack.apiUrl!);

    await sleep(2_000);
    const rssBefore = residentKb(apiPid);
    for (let i = 0; i <= COUNTER_WORKERS; i++) {
      workers.push(
        fork(join(import.meta.dirname, "streamClients.ts"), { execArgv: ["--import", "tsx"], stdio: "inherit" }),
      );
    }
    const probes = workers[COUNTER_WORKERS]!;
    // Counters care about no deadline: they yield the cores to the service and the probes.
    for (const worker of workers.slice(0, COUNTER_WORKERS)) setPriority(worker.pid!, 10);
    const connectCounters = (count: number) =>
      Promise.all(
        workers.slice(0, COUNTER_WORKERS).map((worker, i) =>
          ask(worker, {
            cmd: "connect",
            host: api.hostname,
            port: Number(api.port),
            probes: false,
            count: Math.floor(count / COUNTER_WORKERS) + (i < count % COUNTER_WORKERS ? 1 : 0),
          }),
        ),
      );

    const random = prng(5);
    // Sent at once, so one sender per trade in a block (anvil would give two the same nonce).
    const trade = (_: unknown, i: number) => {
      const market = random.int(2);
      return driver.buy(traders[i]!, markets[market]!, random.int(2), toUsdcUnits(1 + random.int(20)));
    };
    const tradeOneByOne = async () => {
      console.error(`stream bench: ${SLOW_TRADES} trades one at a time...`);
      for (let i = 0; i < SLOW_TRADES; i++) {
        await mine(driver, [trade(null, i % traders.length)]);
        await sleep(200);
      }
      return collect(workers, visible, SLOW_TRADES);
    };

    const connectProbes = (count: number) =>
      ask(probes, { cmd: "connect", host: api.hostname, port: Number(api.port), probes: true, count });
    /** Adds `counters` counting clients and the probes, in groups, each group after its share of counters. */
    const connectSpread = async (counters: number) => {
      for (let group = 0; group < PROBE_GROUPS; group++) {
        await connectCounters(
          Math.floor(((group + 1) * counters) / PROBE_GROUPS) - Math.floor((group * counters) / PROBE_GROUPS),
        );
        await connectProbes(PROBES / PROBE_GROUPS);
      }
    };

    console.error(`stream bench: connecting ${FEW_CLIENTS} clients...`);
    await connectSpread(FEW_CLIENTS - PROBES);
    const few = await tradeOneByOne();

    console.error(`stream bench: connecting up to ${CLIENTS} clients...`);
    // The probes reconnect among the new clients, to sit along the whole order again.
    await ask(probes, { cmd: "close-probes" });
    const connectStarted = now();
    await connectSpread(CLIENTS - FEW_CLIENTS);
    const connectSeconds = (now() - connectStarted) / 1000;
    await sleep(3_000);
    const rssConnected = residentKb(apiPid);
    const beforeSlow = await streamMetrics(stack);
    const slow = await tradeOneByOne();
    const beforeLoad = await streamMetrics(stack);

    const blocks = LOAD_SECONDS * LOAD_BLOCKS_PER_SECOND;
    const perBlock = LOAD_RATE / LOAD_BLOCKS_PER_SECOND;
    /** LOAD_RATE trades/s while reading /api/markets; the CPU share is that of `pid` and its children. */
    const tradeUnderLoad = async (pid: number) => {
      console.error(`stream bench: ${LOAD_RATE} trades/s for ${LOAD_SECONDS} s...`);
      const loadStarted = now();
      const cpuBefore = cpuSeconds(pid);
      const reads = pollReads(`${api.origin}/api/markets`);
      for (let block = 0; block < blocks; block++) {
        await sleep(loadStarted + (block * 1000) / LOAD_BLOCKS_PER_SECOND - now());
        await mine(driver, Array.from({ length: perBlock }, trade));
      }
      const seconds = (now() - loadStarted) / 1000;
      const achievedRate = (blocks * perBlock) / seconds;
      const cpuShare = (cpuSeconds(pid) - cpuBefore) / seconds;
      const rss = residentKb(pid);
      const loaded = await collect(workers, visible, blocks * perBlock);
      return { achievedRate, cpuShare, rss, loaded, readLatencies: await reads.stop() };
    };
    const { achievedRate, cpuShare: apiCpuShare, rss: rssLoaded, loaded, readLatencies } = await tradeUnderLoad(apiPid);
    const server = await streamMetrics(stack);

    // The same clients on several API processes sharing one port, the single one left without clients.
    console.error(`stream bench: ${CLIENTS} clients on ${SCALE_OUT} API processes sharing one port...`);
    await Promise.all(workers.map((worker) => ask(worker, { cmd: "disconnect" })));
    const cluster = await startApiCluster({ like: apiPid, processes: SCALE_OUT });
    let scaledOut: {
      connectSeconds: number;
      perProcess: number[];
      slow: typeof slow;
      load: Awaited<ReturnType<typeof tradeUnderLoad>>;
    };
    try {
      api = new URL(cluster.url);
      const scaleOutStarted = now();
      await connectSpread(CLIENTS - PROBES);
      const connectSeconds = (now() - scaleOutStarted) / 1000;
      await sleep(3_000);
      const perProcess = cluster.connectionsPerProcess();
      const slowScaledOut = await tradeOneByOne();
      scaledOut = { connectSeconds, perProcess, slow: slowScaledOut, load: await tradeUnderLoad(cluster.pid) };
    } finally {
      await Promise.all(workers.map((worker) => ask(worker, { cmd: "disconnect" })));
      await cluster.stop();
    }

    const perConnectionKb = (rssConnected - rssBefore) / CLIENTS;
    const latency = (run: Awaited<ReturnType<typeof collect>>) =>
      `p50 ${median(run.latencies).toFixed(1)} ms, p99 ${percentile(run.latencies, 99).toFixed(1)} ms`;
    const processes = `${SCALE_OUT} API processes on one port (node:cluster)`;
    const completeness = (run: Awaited<ReturnType<typeof collect>>, expected: number) =>
      `${run.minTrades === expected ? "all" : `${run.minTrades}-${run.maxTrades} of ${expected}`} (${run.drainSeconds.toFixed(1)} s)`;
    printTable(
      `stream (one API process; latency on ${PROBES} probe clients spread along the fan-out, from the trade's commit notification to its event)`,
      ["measure", "value", "target"],
      [
        [`visible -> received, ${FEW_CLIENTS} clients, one trade per block (~4/s)`, latency(few), ""],
        [
          `${CLIENTS} clients connected`,
          `in ${connectSeconds.toFixed(1)} s (the last ${CLIENTS - FEW_CLIENTS + PROBES})`,
          "",
        ],
        [
          "memory per connection (API RSS)",
          `${perConnectionKb.toFixed(1)} KB (${mb(rssBefore)} -> ${mb(rssConnected)} MB; ${mb(rssLoaded)} MB after load)`,
          "<= 30 KB",
        ],
        [`visible -> received, ${CLIENTS} clients, one trade per block (~4/s)`, latency(slow), "p99 <= 250 ms"],
        [
          `visible -> received, ${CLIENTS} clients, ${achievedRate.toFixed(0)} trades/s (${LOAD_RATE} sought)`,
          latency(loaded),
          "p99 <= 250 ms",
        ],
        [
          "every client got every trade (time after the last)",
          `${completeness(slow, SLOW_TRADES)}; under load ${completeness(loaded, blocks * perBlock)}`,
          "all",
        ],
        [
          `API: one fan-out to every client, ${CLIENTS} clients (slow / load)`,
          `${fanoutBetween(beforeSlow, beforeLoad)} / ${fanoutBetween(beforeLoad, server)}`,
          "",
        ],
        [
          `floor: one write to each of ${CLIENTS} plain sockets, nothing else running (${floorEvents.join(" / ")} events of ${EVENT_BYTES} B)`,
          `${[...floor.values()].map((ms) => ms.toFixed(1)).join(" / ")} ms`,
          "",
        ],
        [
          "API: GET /api/markets meanwhile, one at a time (load and drain)",
          `p50 ${median(readLatencies).toFixed(1)} ms, p99 ${percentile(readLatencies, 99).toFixed(1)} ms, max ${Math.max(...readLatencies).toFixed(0)} ms (${readLatencies.length})`,
          "",
        ],
        ["API: CPU during the load", `${(apiCpuShare * 100).toFixed(0)}% of one core`, ""],
        [
          `API: notification -> fan-out starts, ${CLIENTS} clients (slow / load)`,
          `${delayBetween(beforeSlow, beforeLoad)} / ${delayBetween(beforeLoad, server)}`,
          "",
        ],
        ["slow clients dropped", String(server.dropped), "0"],
        [
          `${processes}: ${CLIENTS} clients connected`,
          `in ${scaledOut.connectSeconds.toFixed(1)} s (all of them); ${scaledOut.perProcess.join(" / ")} per process`,
          "",
        ],
        [`${processes}: visible -> received, one trade per block (~4/s)`, latency(scaledOut.slow), "p99 <= 250 ms"],
        [
          `${processes}: visible -> received, ${scaledOut.load.achievedRate.toFixed(0)} trades/s (${LOAD_RATE} sought)`,
          latency(scaledOut.load.loaded),
          "p99 <= 250 ms",
        ],
        [
          `${processes}: every client got every trade (time after the last)`,
          `${completeness(scaledOut.slow, SLOW_TRADES)}; under load ${completeness(scaledOut.load.loaded, blocks * perBlock)}`,
          "all",
        ],
        [
          `${processes}: GET /api/markets meanwhile (load and drain)`,
          `p50 ${median(scaledOut.load.readLatencies).toFixed(1)} ms, p99 ${percentile(scaledOut.load.readLatencies, 99).toFixed(1)} ms, max ${Math.max(...scaledOut.load.readLatencies).toFixed(0)} ms (${scaledOut.load.readLatencies.length})`,
          "",
        ],
        [
          `${processes}: CPU during the load (primary and workers)`,
          `${(scaledOut.load.cpuShare * 100).toFixed(0)}% of one core; ${mb(scaledOut.load.rss)} MB after load`,
          "",
        ],
      ],
    );
  } finally {
    for (const worker of workers) worker.send({ cmd: "close" });
    db.removeAllListeners("notification");
    await db.end();
    await stack.stop();
    await dropFeed(stack, viewsSchema);
    if (process.env.KEEP_STACK_DATA) console.error(`stream bench: logs kept in ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}
