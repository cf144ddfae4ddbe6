// The stream's service side, with the API service in this process: a thousand clients connect and
// go away and the service returns to where it was (no socket, timer, listener or memory left
// behind, measured after a forced collection); a resuming client reads a long backlog in order.

import { type ClientRequest, type IncomingMessage, request } from "node:http";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../api/config";
import { streamLogQueries } from "../api/db/streamLog";
import { type ApiService, startApiService } from "../api/service";
import { openStream, sleep, until } from "./helpers/sse";
import { startTestStack, type TestStack } from "./helpers/stack";

const CLIENTS = 1_000;

/** Opens a stream and resolves once its first bytes (the connected event) arrive. */
function connect(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ req: ClientRequest; res: IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { agent: false, headers: { accept: "text/event-stream", ...headers } },
      (res: IncomingMessage) => {
        if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`));
        res.once("data", () => resolve({ req, res }));
        res.on("error", () => {});
      },
    );
    req.on("error", (error) => (req.destroyed ? undefined : reject(error)));
    req.end();
  });
}

/** Handles by type (sockets, timers, ...); the pool's idle timers may expire meanwhile, so fewer is fine. */
const resourceCounts = () => {
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
};

const noMoreThan = (now: Record<string, number>, before: Record<string, number>) =>
  Object.entries(now).every(([type, count]) => type === "Immediate" || count <= (before[type] ?? 0));

async function settledHeap(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    globalThis.gc!();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

describe("stream service", () => {
  let stack: TestStack;
  let service: ApiService;

  beforeAll(async () => {
    stack = await startTestStack();
    const config = loadConfig({
      DATABASE_URL: stack.databaseUrl,
      VIEWS_SCHEMA: stack.viewsSchema,
      PORT: "0",
      DATABASE_POOL_SIZE: "4",
      STREAM_PING_MS: "50",
    });
    service = await startApiService(config, pino({ level: "silent" }));
  });
  afterAll(async () => {
    await service?.close();
    await stack?.dispose();
  });

  const wave = async (count: number) => {
    const slug = stack.deployment.markets[0]!.slug;
    const requests = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        // Live clients, resuming ones (they read the log first) and filtered ones (a market lookup).
        i % 3 === 0
          ? connect(`${service.url}/api/trade/stream`)
          : i % 3 === 1
            ? connect(`${service.url}/api/trade/stream`, { "last-event-id": "0" })
            : connect(`${service.url}/api/trade/stream?marketSlug=${slug}&types=trade`),
      ),
    );
    expect(service.stream.stats.clients).toBe(count);
    // Pings go out to all of them meanwhile.
    await sleep(200);
    for (const { req } of requests) req.destroy();
    await until(() => service.stream.stats.clients === 0, "every client to be released");
  };

  it("returns to its baseline of handles and memory after 1,000 clients", async () => {
    // A first small wave warms up what stays: the pool's connections, compiled code, caches.
    await wave(300);
    await sleep(500);
    const handlesBefore = resourceCounts();
    const heapBefore = await settledHeap();

    await wave(CLIENTS);
    await until(
      () => noMoreThan(resourceCounts(), handlesBefore),
      `handles to return to ${JSON.stringify(handlesBefore)}`,
      10_000,
    );
    const heapAfter = await settledHeap();
    const handlesAfter = resourceCounts();
    expect(
      noMoreThan(handlesAfter, handlesBefore),
      `${JSON.stringify(handlesAfter)} vs ${JSON.stringify(handlesBefore)}`,
    ).toBe(true);
    // A thousand leaked clients would hold megabytes (a socket, a response and our record each).
    expect(heapAfter - heapBefore).toBeLessThan(4 * 1024 * 1024);
  });

  it("replays a backlog longer than a page, across digit boundaries of the ids, in order", async () => {
    const db = new pg.Client(stack.databaseUrl);
    await db.connect();
    try {
      // Enough comments that the ids gain a digit (999 -> 1000 sorts wrongly as text) and span pages.
      const head = Number((await db.query("SELECT coalesce(max(seq), 0) AS head FROM api.stream_event")).rows[0].head);
      const count = Math.max(2_500, 10 ** String(head + 1).length - head + 10);
      await db.query(
        "INSERT INTO api.comment (user_id, target_type, target_id, body) SELECT 'backlog', 'blog', 'p1', 'comment ' || i FROM generate_series(1, $1) i",
        [count],
      );
      const client = openStream(`${service.url}/api/trade/stream?types=comment`, { lastEventId: String(head) });
      await until(() => client.of("comment").length >= count, `${count} comments`, 60_000);
      client.close();
      const ids = client.of("comment").map((event) => Number(event.id));
      expect(ids).toHaveLength(count);
      expect(ids).toEqual(Array.from({ length: count }, (_, i) => head + 1 + i));
      expect(client.of("comment").map((event) => event.data.body)).toEqual(
        Array.from({ length: count }, (_, i) => `comment ${i + 1}`),
      );
    } finally {
      await db.end();
    }
  });

  it("drops a client that stops reading, while the others keep receiving everything", async () => {
    const db = new pg.Client(stack.databaseUrl);
    await db.connect();
    try {
      const reader = openStream(`${service.url}/api/trade/stream?types=comment`);
      await until(() => reader.of("connected").length > 0, "the reader to connect");
      const stalled = await connect(`${service.url}/api/trade/stream?types=comment`);
      stalled.res.pause();
      const closed = new Promise<void>((resolve) => stalled.res.socket.once("close", () => resolve()));
      const droppedBefore = service.stream.stats.droppedSlow;

      // About 10 MB in pages of 1,000 events (0.5 MB): far more than the kernel's buffers and the
      // 1 MiB a client may fall behind, while one page is less.
      const count = 20_000;
      await db.query(
        "INSERT INTO api.comment (user_id, target_type, target_id, body) SELECT 'flood', 'blog', 'p2', repeat('x', 400) || i FROM generate_series(1, $1) i",
        [count],
      );
      await until(() => reader.of("comment").length >= count, `${count} comments`, 60_000);
      reader.close();
      // The reader may itself fall behind in such a burst and be dropped; it then resumes with
      // Last-Event-ID. Either way it has every event, once, in order.
      expect(reader.of("comment").map((event) => event.data.body)).toEqual(
        Array.from({ length: count }, (_, i) => `${"x".repeat(400)}${i + 1}`),
      );
      expect(service.stream.stats.droppedSlow).toBeGreaterThan(droppedBefore);
      // The server closed the stalled connection; reading again shows it.
      stalled.res.resume();
      await closed;
    } finally {
      await db.end();
    }
  });

  it("announces a history larger than one batch in order, and retracts what a reorg undid but not what a restarted indexer has yet to reach", async () => {
    // A views schema of its own (tables shaped like the indexer's), so the test controls every row.
    const feed = `sync_${Math.random().toString(36).slice(2, 10)}`;
    const db = new pg.Client(stack.databaseUrl);
    await db.connect();
    const pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
    try {
      await db.query(`CREATE SCHEMA ${feed}`);
      await db.query(`CREATE TABLE ${feed}.market (LIKE "${stack.viewsSchema}".market)`);
      await db.query(`CREATE TABLE ${feed}.trade (LIKE "${stack.viewsSchema}".trade)`);
      await db.query(`INSERT INTO ${feed}.market SELECT * FROM "${stack.viewsSchema}".market LIMIT 1`);
      // The indexer's state as Ponder keeps it: whether it is ready, and the last block it indexed.
      await db.query(`CREATE TABLE ${feed}._ponder_meta AS SELECT * FROM "${stack.viewsSchema}"._ponder_meta`);
      await db.query(
        `CREATE TABLE ${feed}._ponder_checkpoint AS SELECT * FROM "${stack.viewsSchema}"._ponder_checkpoint`,
      );
      const indexer = async (state: { ready: boolean; block: number }) => {
        await db.query(`UPDATE ${feed}._ponder_meta SET value = jsonb_set(value, '{is_ready}', to_jsonb($1::int))`, [
          state.ready ? 1 : 0,
        ]);
        await db.query(
          `UPDATE ${feed}._ponder_checkpoint SET latest_checkpoint = overlay(latest_checkpoint placing lpad($1, 16, '0') from 27 for 16)`,
          [String(state.block)],
        );
      };
      await indexer({ ready: true, block: 25 });
      await db.query(
        `INSERT INTO ${feed}.trade (id, market, trader, outcome, is_buy, usdc_amount, token_amount, fee, avg_price, prices_after,
                                    prices_after_wad, block_number, log_index, timestamp, tx_hash)
         SELECT 'trade-' || i, m.address, '0x00000000000000000000000000000000000000aa', 0, true, 1000000 * i, 2000000 * i, 0, 0.5,
                '{0.5,0.5}', '{500000000000000000,500000000000000000}', i, 0, 1700000000 + i, '0x' || lpad(to_hex(i), 64, '0')
           FROM generate_series(1, 25) i, ${feed}.market m`,
      );
      const log = streamLogQueries(pool, feed);
      const head = await log.head();
      const sync = () => log.syncTrades({ reorgDepth: 64, batchSize: 10 });

      expect(await sync()).toBe(25);
      const announced = (await log.after(head, 100)).filter((row) => row.type === "trade");
      expect(announced.map((row) => JSON.parse(row.data).id)).toEqual(
        Array.from({ length: 25 }, (_, i) => `trade-${i + 1}`),
      );
      expect(JSON.parse(announced[2]!.data)).toMatchObject({ amount: "3", tokens: "6", action: "BUY", blockNumber: 3 });

      // Restarted after a crash, the indexer deletes what it had not finalized, then indexes it
      // again: first while not ready, then block by block once ready.
      await db.query(`DELETE FROM ${feed}.trade WHERE block_number > 20`);
      const beforeRetracts = await log.head();
      await indexer({ ready: false, block: 25 });
      expect(await sync()).toBe(0);
      await indexer({ ready: true, block: 20 });
      expect(await sync()).toBe(0);

      // Past those blocks without the trades: a reorg undid them.
      await indexer({ ready: true, block: 26 });
      expect(await sync()).toBe(5);
      const retracted = (await log.after(beforeRetracts, 100)).filter((row) => row.type === "retract");
      expect(retracted.map((row) => JSON.parse(row.data).id)).toEqual([
        "trade-25",
        "trade-24",
        "trade-23",
        "trade-22",
        "trade-21",
      ]);
      expect(await sync()).toBe(0);
    } finally {
      await db.query(`DROP SCHEMA IF EXISTS ${feed} CASCADE`);
      await db.query("DELETE FROM api.stream_event WHERE feed = $1", [feed]);
      await db.query("DELETE FROM api.stream_trade WHERE feed = $1", [feed]);
      await pool.end();
      await db.end();
    }
  });
});
