// Failure drills on the real stack, each under load (two readers, a trader through the API and a
// crowd trading straight on chain) and each asserting that nothing is lost. PostgreSQL restarted:
// the API answers 503 database_unavailable meanwhile and recovers by itself, in the same process.
// The indexer killed and restarted: the stream pauses, then catches up. Through both, a stream
// client ends with exactly the indexed trades, in order, once each (resuming with Last-Event-ID
// should its stream end), and every trade the API accepted is among them.
import { join } from "node:path";
import pg from "pg";
import type { PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicClientFor } from "../api/chain/chain";
import { toUsdcUnits } from "../constants";
import { spawnIndexer, waitForIndexer } from "../scripts/stack/indexer";
import { type Child, stopChild, waitUntil } from "../scripts/stack/processes";
import { type ChainDriver, chainDriver } from "./helpers/chain";
import { type CallResult, testClient } from "./helpers/client";
import { expectEnvelope } from "./helpers/http";
import { tradeRandomly, traderAddresses } from "./helpers/scenario";
import { openStream, type StreamClient, sleep, until } from "./helpers/sse";
import { startTestStack, type TestStack } from "./helpers/stack";
import { tokenFor } from "./helpers/tokens";

const READS = ["/api/markets", "/api/trades/recent"];

const CROWD_PAUSE_MS = 400;

type Answer = { request: string; status: number; code?: string };

type Load = {
  answers: Answer[];
  /** The txIds of the trades the API accepted (200). */
  acceptedTrades: string[];
  /** Blocks of trades the crowd has mined so far. */
  crowdBlocks: number;
};

describe("failure drills", () => {
  let stack: TestStack;
  let client: ReturnType<typeof testClient>;
  let chain: PublicClient;
  let driver: ChainDriver;
  let restartedIndexer: Child | undefined;
  const crowd = traderAddresses(6, 1_300);
  const streams: StreamClient[] = [];

  const markets = () => stack.deployment.markets.slice(0, 2).map((m) => ({ address: m.address, outcomes: 2 }));
  const apiProcess = () => stack.children.find((child) => child.name === "api")!.process;

  /** A connection per call, since the database restarts under it. */
  const query = async (text: string) => {
    const db = new pg.Client(stack.databaseUrl);
    await db.connect();
    try {
      return (await db.query(text)).rows;
    } finally {
      await db.end();
    }
  };
  const tradeIdsNow = async () =>
    (await query(`SELECT id FROM "${stack.viewsSchema}".trade ORDER BY block_number, log_index`)).map(
      (row) => row.id as string,
    );
  /** The indexed trades, oldest first, once the indexer has caught up with the chain. */
  const indexedTradeIds = async () => {
    await waitForIndexer({ indexerUrl: stack.indexerUrl!, rpcUrl: stack.rpcUrl });
    return tradeIdsNow();
  };

  const openTradeStream = async () => {
    const stream = openStream(`${stack.apiUrl}/api/trade/stream?types=trade`, { reopenAfterMs: 500 });
    streams.push(stream);
    await until(() => stream.of("connected").length > 0, "the stream to connect");
    return stream;
  };

  /** Runs `drill` while the load runs; the load stops (and any failure of its own surfaces) when the drill ends. */
  const underLoad = async (drill: (load: Load) => Promise<void>): Promise<Load> => {
    const load: Load = { answers: [], acceptedTrades: [], crowdBlocks: 0 };
    let running = true;
    const record = (request: string, { status, body }: CallResult) => {
      load.answers.push({ request, status, code: body?.error?.code });
      return status;
    };
    const reader = async () => {
      while (running) {
        for (const path of READS) if (record(`GET ${path}`, await client.call("GET", path)) !== 200) await sleep(50);
      }
    };
    const apiTrader = async () => {
      for (let i = 0; running; i++) {
        const answer = await client.call("POST", "/api/trade/buy", {
          body: { marketSlug: stack.deployment.markets[i % 2]!.slug, outcome: i % 3 ? "Yes" : "No", amount: 1 },
        });
        if (record("POST /api/trade/buy", answer) === 200) load.acceptedTrades.push(answer.body.txId);
        else await sleep(100);
      }
    };
    const tradingCrowd = async () => {
      for (let seed = 1; running; seed++) {
        await tradeRandomly({ driver, chain, traders: crowd, markets: markets(), trades: 3, perBlock: 3, seed });
        load.crowdBlocks += 1;
        // A busy market's pace, which a loaded indexer keeps up with (at full speed anvil mines
        // 15 blocks a second and the restarted indexer would never catch up).
        await sleep(CROWD_PAUSE_MS);
      }
    };
    const loops = Promise.all([reader(), reader(), apiTrader(), tradingCrowd()]);
    loops.catch(() => {});
    try {
      await drill(load);
    } finally {
      running = false;
      await loops;
    }
    return load;
  };

  /** Waits while the crowd mines `blocks` more blocks of trades. */
  const crowdTrades = (load: Load, blocks: number) => {
    const from = load.crowdBlocks;
    return until(() => load.crowdBlocks >= from + blocks, `${blocks} blocks of trades`);
  };

  /**
   * The stream received the trades indexed since `before` exactly once each, in the indexer's
   * order, none retracted, with increasing event ids; so did every trade the API accepted.
   */
  const expectNothingLost = async (stream: StreamClient, before: Set<string>, load: Load) => {
    const indexed = (await indexedTradeIds()).filter((id) => !before.has(id));
    await until(() => stream.of("trade").length >= indexed.length, `${indexed.length} trade events`, 60_000);
    // Anything repeated or late would arrive meanwhile.
    await sleep(500);
    const trades = stream.of("trade");
    expect(trades.map((event) => event.data.id)).toEqual(indexed);
    expect(stream.of("retract")).toEqual([]);
    const ids = stream.events.filter((event) => event.type !== "connected").map((event) => Number(event.id));
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
    const streamedTxIds = new Set(trades.map((event) => event.data.txId as string));
    expect(load.acceptedTrades.filter((txId) => !streamedTxIds.has(txId))).toEqual([]);
    expect(load.acceptedTrades.length).toBeGreaterThan(0);
  };

  const unexpectedAnswers = (load: Load) =>
    load.answers.filter(
      (answer) => answer.status !== 200 && !(answer.status === 503 && answer.code === "database_unavailable"),
    );

  beforeAll(async () => {
    // The read cache off, so that every read asks the database.
    stack = await startTestStack({ embeddedDatabase: true, apiEnv: { READ_CACHE_TTL_MS: "0" } });
    client = testClient(stack.apiUrl!, await tokenFor("restart-rita"));
    chain = publicClientFor(stack.rpcUrl);
    driver = chainDriver(stack.rpcUrl, stack.deployment);
    await driver.fundTraders(
      crowd,
      toUsdcUnits(1_000_000),
      markets().map((m) => m.address),
    );
    expect((await client.call("POST", "/api/wallet/get-or-create")).status).toBe(200);
    expect((await client.call("POST", "/api/wallet/faucet")).status).toBe(200);
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    if (restartedIndexer) await stopChild(restartedIndexer, 30_000);
    await stack?.dispose();
  });

  it("answers 503 database_unavailable while PostgreSQL restarts under load, recovers in the same process, and the stream goes on with no gap and no repeat", async () => {
    const api = apiProcess();
    const pid = api.pid;
    const before = new Set(await indexedTradeIds());
    const stream = await openTradeStream();
    let duringOutage: Answer[] = [];

    const load = await underLoad(async (load) => {
      await until(() => stream.of("trade").length >= 3 && load.acceptedTrades.length >= 2, "trades to flow");
      await stack.database.embedded!.stop();
      const outageStart = load.answers.length;
      for (const [method, path] of [
        ["GET", "/api/markets"],
        ["GET", "/api/trades/recent"],
        ["POST", "/api/wallet/get-or-create"],
      ] as const) {
        const { status, body } = await client.call(method, path);
        expect(status, `${method} ${path}`).toBe(503);
        expectEnvelope(body, "database_unavailable");
      }
      expect((await client.call("GET", "/health")).status).toBe(200);
      expect((await client.call("GET", "/ready")).status).toBe(503);
      // The chain goes on without the database.
      await crowdTrades(load, 3);
      duringOutage = load.answers.slice(outageStart);

      await stack.database.embedded!.start();
      const accepted = load.acceptedTrades.length;
      await until(() => load.acceptedTrades.length >= accepted + 2, "trades through the API again", 60_000);
      await crowdTrades(load, 2);
    });

    for (const request of ["GET /api/markets", "POST /api/trade/buy"]) {
      expect(
        duringOutage.filter((answer) => answer.request === request && answer.status === 503).length,
      ).toBeGreaterThan(0);
    }
    expect(unexpectedAnswers(load)).toEqual([]);
    await expectNothingLost(stream, before, load);
    expect(api.exitCode).toBeNull();
    expect(api.pid).toBe(pid);
  });

  it("pauses the stream while the indexer is killed and restarted amid trades, then catches up with no gap and no repeat", async () => {
    // The markets' own blocks buried deep enough to be final, so that they stay readable while the
    // restarted indexer reverts and indexes again the blocks it had not finalized.
    await driver.rpc("anvil_mine", ["0x40"]);
    const before = new Set(await indexedTradeIds());
    const stream = await openTradeStream();
    const ponder = stack.children.find((child) => child.name === "ponder")!;
    let indexedAtKill = new Set<string>();
    let streamedWhileDown: string[] = [];

    const load = await underLoad(async (load) => {
      await until(() => stream.of("trade").length >= 3 && load.acceptedTrades.length >= 2, "trades to flow");
      const exited = new Promise((resolve) => ponder.process.once("exit", resolve));
      process.kill(-ponder.process.pid!, "SIGKILL");
      await exited;
      indexedAtKill = new Set(await tradeIdsNow());
      await crowdTrades(load, 3);
      streamedWhileDown = stream.of("trade").map((event) => event.data.id);

      // Trades go on while it waits out the dead process's lock on its schema (up to 25 s), reverts
      // what it had not finalized and indexes it again. A connection of the API dropped meanwhile
      // makes the API compare the stream's log with an index that is still catching up.
      restartedIndexer = spawnIndexer({
        port: Number(new URL(stack.indexerUrl!).port),
        databaseUrl: stack.databaseUrl,
        schema: stack.indexerSchema,
        viewsSchema: stack.viewsSchema,
        rpcUrl: stack.rpcUrl,
        wsUrl: stack.wsUrl,
        deploymentsDir: join(stack.dataDir, "deployments"),
        logFile: join(stack.dataDir, "logs", "ponder-restarted.log"),
      });
      await waitUntil(
        "the indexer to revert what it had not finalized",
        async () =>
          (await query(`SELECT value->>'is_ready' AS ready FROM "${stack.viewsSchema}"._ponder_meta`))[0]?.ready ===
          "0",
        { child: restartedIndexer, timeoutMs: 90_000 },
      );
      await query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'prediction-market-api-listener'",
      );
      await waitForIndexer({ indexerUrl: stack.indexerUrl!, rpcUrl: stack.rpcUrl, child: restartedIndexer });
      await crowdTrades(load, 2);
    });

    // Paused: nothing past what the indexer had when it died...
    expect(streamedWhileDown.filter((id) => !indexedAtKill.has(id))).toEqual([]);
    // ...then everything, the trades made while it was down included.
    await expectNothingLost(stream, before, load);
    expect(stream.of("trade").length).toBeGreaterThan(streamedWhileDown.length);
    expect(unexpectedAnswers(load)).toEqual([]);
    // The dead process's lock alone holds the restart up to 25 s; on a loaded machine the whole drill took 99 s.
  }, 240_000);
});
