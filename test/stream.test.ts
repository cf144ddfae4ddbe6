// The live stream end to end: trades made through the API and straight on chain reach every
// connected EventSource in order; resuming with Last-Event-ID (by hand and by EventSource itself
// across an API restart) loses and repeats nothing; two API processes send the same events with
// the same ids; filters, comments, pings, and retractions after a reorg.

import { join } from "node:path";
import pg from "pg";
import type { Address, PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicClientFor } from "../api/chain/chain";
import { CommentEvent, ConnectedEvent, RetractEvent, TradeEvent } from "../api/routes/stream";
import { startApi } from "../scripts/stack/api";
import { waitForIndexer } from "../scripts/stack/indexer";
import { freePort } from "../scripts/stack/ports";
import { type Child, stopChild } from "../scripts/stack/processes";
import { type ChainDriver, chainDriver } from "./helpers/chain";
import { expectEnvelope, getJson } from "./helpers/http";
import { tradeRandomly, traderAddresses } from "./helpers/scenario";
import { openStream, type StreamClient, sleep, until } from "./helpers/sse";
import { startTestStack, type TestStack } from "./helpers/stack";
import { tokenFor } from "./helpers/tokens";

const PING_MS = 300;

describe("live stream", () => {
  let stack: TestStack;
  let chain: PublicClient;
  let driver: ChainDriver;
  let db: pg.Client;
  let token: string;
  let wallet: Address;
  let restartedApi: Child | undefined;
  let secondApi: Child | undefined;
  const traders = traderAddresses(6, 600);
  const opened: StreamClient[] = [];

  const streamUrl = (query = "") => `${stack.apiUrl}/api/trade/stream${query}`;
  const open = (query = "", options: { lastEventId?: string } = {}) => {
    const client = openStream(streamUrl(query), options);
    opened.push(client);
    return client;
  };
  const connected = (...clients: StreamClient[]) =>
    until(() => clients.every((c) => c.of("connected").length > 0), "connected events");
  // The first two demo markets, both Yes/No.
  const markets = () => stack.deployment.markets.slice(0, 2).map((m) => ({ address: m.address, outcomes: 2 }));
  /** The indexed trades, oldest first, once the indexer has caught up with the chain. */
  const indexedTradeIds = async (marketAddress?: Address) => {
    await waitForIndexer({ indexerUrl: stack.indexerUrl!, rpcUrl: stack.rpcUrl });
    return (
      await db.query(
        `SELECT id FROM "${stack.viewsSchema}".trade ${marketAddress ? "WHERE market = $1" : ""} ORDER BY block_number, log_index`,
        marketAddress ? [marketAddress.toLowerCase()] : [],
      )
    ).rows.map((row) => row.id as string);
  };
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${stack.apiUrl}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const confirmed = async (txId: string) => {
    await until(
      async () =>
        (await getJson(stack.apiUrl!, `/api/trade/status/${txId}`, { authorization: `Bearer ${token}` })).body
          .status !== "pending",
      `${txId} confirmed`,
    );
  };
  /** Waits until every client has as many events of `type` as `count`. */
  const received = (clients: StreamClient[], type: string, count: number) =>
    until(() => clients.every((c) => c.of(type).length >= count), `${count} ${type} events`);
  const afterConnected = (client: StreamClient) => client.events.filter((event) => event.type !== "connected");

  beforeAll(async () => {
    // Slices of 0 ms: every fan-out pauses after each client, so clients attach, resume and leave
    // in the middle of fan-outs.
    stack = await startTestStack({ apiEnv: { STREAM_PING_MS: String(PING_MS), STREAM_FANOUT_SLICE_MS: "0" } });
    chain = publicClientFor(stack.rpcUrl);
    driver = chainDriver(stack.rpcUrl, stack.deployment);
    await driver.fundTraders(
      traders,
      100_000_000_000n,
      markets().map((m) => m.address),
    );
    db = new pg.Client(stack.databaseUrl);
    await db.connect();
    token = await tokenFor("stream-trader");
    wallet = (await post("/api/wallet/get-or-create", {})).body.address;
    expect((await post("/api/wallet/faucet", {})).status).toBe(200);
  });
  afterAll(async () => {
    for (const client of opened) client.close();
    await db?.end();
    if (restartedApi) await stopChild(restartedApi);
    if (secondApi) await stopChild(secondApi);
    await stack?.dispose();
  });

  it("sends every confirmed trade, in order and with the spec's fields, to three clients", async () => {
    const before = (await indexedTradeIds()).length;
    const clients = [open(), open(), open()];
    await connected(...clients);
    for (const client of clients) ConnectedEvent.parse(client.events[0]!.data);
    expect(new Set(clients.map((c) => c.events[0]!.data.clientId)).size).toBe(3);

    const buy = await post("/api/trade/buy", {
      marketSlug: stack.deployment.markets[0]!.slug,
      outcome: "Yes",
      amount: 25,
    });
    expect(buy.status).toBe(200);
    await tradeRandomly({ driver, chain, traders, markets: markets(), trades: 12, perBlock: 4, seed: 1 });
    await confirmed(buy.body.txId);
    const ids = (await indexedTradeIds()).slice(before);
    expect(ids.length).toBeGreaterThanOrEqual(13);
    await received(clients, "trade", ids.length);
    await sleep(300);

    for (const client of clients) {
      const trades = client.of("trade");
      expect(trades.map((event) => event.data.id)).toEqual(ids);
      for (const event of trades) TradeEvent.parse(event.data);
      const sequence = client.events.map((event) => Number(event.id));
      expect(sequence).toEqual([...sequence].sort((a, b) => a - b));
      expect(new Set(sequence.slice(1)).size).toBe(sequence.length - 1);
      expect(client.events).toEqual(clients[0]!.events.map((event, i) => (i === 0 ? client.events[0] : event)));
    }
    const mine = clients[0]!.of("trade").find((event) => event.data.txId === buy.body.txId);
    const detail = await getJson(stack.apiUrl!, `/api/markets/${stack.deployment.markets[0]!.slug}`);
    expect(mine?.data).toMatchObject({
      type: "trade",
      userId: wallet.toLowerCase(),
      side: "YES",
      outcome: "Yes",
      action: "BUY",
      amount: "25",
      question: detail.body.title,
      marketId: detail.body.id,
      marketSlug: stack.deployment.markets[0]!.slug,
      txHash: buy.body.txHash,
    });
    expect(Number(mine!.data.tokens)).toBeCloseTo(buy.body.tokensReceived, 6);
  });

  it("gives a client that reconnects with Last-Event-ID exactly the events it missed", async () => {
    const reference = open();
    const leaver = open();
    await connected(reference, leaver);
    await tradeRandomly({ driver, chain, traders, markets: markets(), trades: 4, perBlock: 4, seed: 2 });
    await received([reference, leaver], "trade", 4);
    const lastSeen = leaver.events.at(-1)!.id;
    leaver.close();

    await tradeRandomly({ driver, chain, traders, markets: markets(), trades: 6, perBlock: 3, seed: 3 });
    await received([reference], "trade", 10);
    const back = open("", { lastEventId: lastSeen });
    const missed = () => afterConnected(reference).filter((event) => Number(event.id) > Number(lastSeen));
    await until(() => afterConnected(back).length >= missed().length, "the missed events");
    expect(back.events[0]).toMatchObject({ type: "connected", id: lastSeen });
    expect(afterConnected(back)).toEqual(missed());

    // Then on live, still without a repeat.
    await tradeRandomly({ driver, chain, traders, markets: markets(), trades: 2, perBlock: 2, seed: 4 });
    await received([reference], "trade", 12);
    await until(() => afterConnected(back).length >= missed().length, "the live events");
    await sleep(300);
    expect(afterConnected(back)).toEqual(missed());

    // The query parameter does the same for clients that cannot set headers.
    const byQuery = open(`?lastEventId=${lastSeen}`);
    await until(() => afterConnected(byQuery).length >= missed().length, "the missed events by query");
    expect(afterConnected(byQuery)).toEqual(missed());
  });

  it("lets EventSource resume by itself across an API restart, with trades made while it was down", async () => {
    const before = (await indexedTradeIds()).length;
    const client = open();
    await connected(client);
    await tradeRandomly({ driver, chain, traders, markets: markets(), trades: 3, perBlock: 3, seed: 5 });
    await received([client], "trade", 3);

    await stopChild(stack.children.find((child) => child.name === "api")!);
    await tradeRandomly({ driver, chain, traders, markets: markets(), trades: 6, perBlock: 2, seed: 6 });
    await until(async () => (await indexedTradeIds()).length >= before + 9, "the indexer to see the trades");
    restartedApi = (await startApi({ ...stack.apiOptions!, logFile: join(stack.dataDir, "logs", "api-restarted.log") }))
      .child;

    const ids = (await indexedTradeIds()).slice(before);
    await received([client], "trade", ids.length);
    await sleep(300);
    expect(client.of("trade").map((event) => event.data.id)).toEqual(ids);
    expect(client.of("connected").length).toBe(2);
  });

  it("gives clients of two API processes the same events with the same ids, and resumes across them", async () => {
    const second = await startApi({
      ...stack.apiOptions!,
      port: await freePort(),
      logFile: join(stack.dataDir, "logs", "api-second.log"),
    });
    secondApi = second.child;
    const onFirst = open();
    const onSecond = openStream(`${second.url}/api/trade/stream`);
    opened.push(onSecond);
    await connected(onFirst, onSecond);
    await tradeRandomly({ driver, chain, traders, markets: markets(), trades: 8, perBlock: 4, seed: 10 });
    await received([onFirst, onSecond], "trade", 8);
    await sleep(300);
    expect(afterConnected(onSecond)).toEqual(afterConnected(onFirst));

    // An id from one process resumes on the other.
    const resumeAfter = afterConnected(onFirst)[3]!.id;
    const moved = openStream(`${second.url}/api/trade/stream`, { lastEventId: resumeAfter });
    opened.push(moved);
    const expected = afterConnected(onFirst).filter((event) => Number(event.id) > Number(resumeAfter));
    await until(() => afterConnected(moved).length >= expected.length, "the resumed events");
    expect(afterConnected(moved)).toEqual(expected);
  });

  it("filters by market and by event type, and streams comments", async () => {
    const [first, second] = stack.deployment.markets;
    const firstMarketOnly = open(`?marketSlug=${first!.slug}`);
    const commentsOnly = open("?types=comment");
    const tradesOnly = open("?types=trade");
    const everything = open("?types=trade,comment");
    const clients = [firstMarketOnly, commentsOnly, tradesOnly, everything];
    await connected(...clients);
    const firstBefore = (await indexedTradeIds(first!.address)).length;
    const allBefore = (await indexedTradeIds()).length;

    await tradeRandomly({ driver, chain, traders, markets: markets(), trades: 10, perBlock: 5, seed: 7 });
    const top = await db.query(
      "INSERT INTO api.comment (user_id, target_type, target_id, body) VALUES ('alice', 'market', $1, 'Yes looks cheap') RETURNING id",
      [first!.slug],
    );
    await db.query(
      "INSERT INTO api.comment (user_id, target_type, target_id, body) VALUES ('bob', 'market', $1, 'elsewhere')",
      [second!.slug],
    );
    await db.query(
      "INSERT INTO api.comment (user_id, target_type, target_id, body, parent_id, is_duel) VALUES ('carol', 'market', $1, 'I take No', $2, true)",
      [first!.slug, top.rows[0].id],
    );

    const allTrades = (await indexedTradeIds()).slice(allBefore);
    const firstTrades = (await indexedTradeIds(first!.address)).slice(firstBefore);
    await received([tradesOnly, everything], "trade", allTrades.length);
    await received([commentsOnly, everything], "comment", 3);
    await received([firstMarketOnly], "comment", 2);
    await sleep(300);

    expect(tradesOnly.of("trade").map((event) => event.data.id)).toEqual(allTrades);
    expect(tradesOnly.of("comment")).toHaveLength(0);
    expect(commentsOnly.of("trade")).toHaveLength(0);
    expect(firstMarketOnly.of("trade").map((event) => event.data.id)).toEqual(firstTrades);
    expect(firstMarketOnly.of("comment").map((event) => event.data.userId)).toEqual(["alice", "carol"]);
    expect(afterConnected(everything)).toHaveLength(allTrades.length + 3);

    const [alice, bob, carol] = commentsOnly.of("comment").map((event) => CommentEvent.parse(event.data));
    expect(alice).toMatchObject({
      userId: "alice",
      targetType: "market",
      targetId: first!.slug,
      body: "Yes looks cheap",
      parentId: null,
      isDuel: false,
    });
    expect(bob).toMatchObject({ userId: "bob", targetId: second!.slug });
    expect(carol).toMatchObject({ userId: "carol", parentId: alice!.id, isDuel: true });
  });

  it("refuses bad parameters with the error envelope", async () => {
    const cases: [string, Record<string, string>, number, string?][] = [
      ["?types=trade,bogus", {}, 400, "types"],
      ["", { "last-event-id": "abc" }, 400, "last-event-id"],
      ["?lastEventId=-1", {}, 400, "lastEventId"],
      ["?marketSlug=no-such-market", {}, 404],
      ["", { accept: "application/json" }, 406],
    ];
    for (const [query, headers, status, parameter] of cases) {
      const response = await getJson(stack.apiUrl!, `/api/trade/stream${query}`, {
        accept: "text/event-stream",
        ...headers,
      });
      expect(response.status, query || JSON.stringify(headers)).toBe(status);
      expectEnvelope(response.body);
      if (parameter) expect(response.body.error.details.parameter).toBe(parameter);
    }
  });

  it("sends a ping comment at the configured interval", async () => {
    const controller = new AbortController();
    const response = await fetch(streamUrl(), { headers: { accept: "text/event-stream" }, signal: controller.signal });
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const started = Date.now();
    while (Date.now() - started < PING_MS * 4.5) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    controller.abort();
    expect(text.startsWith("retry: ")).toBe(true);
    expect(text.split("\n").filter((line) => line === ": ping").length).toBeGreaterThanOrEqual(3);
  });

  it("retracts trades that a reorg undid and announces the new chain's", async () => {
    const client = open("?types=trade");
    await connected(client);
    await until(async () => (await getJson(stack.apiUrl!, "/ready")).status === 200, "the API to be ready");
    const before = (await indexedTradeIds()).length;
    const snapshot = await driver.rpc<string>("evm_snapshot");
    await tradeRandomly({ driver, chain, traders, markets: markets(), trades: 5, perBlock: 5, seed: 8 });
    await received([client], "trade", 5);
    const undone = client.of("trade").map((event) => event.data.id as string);

    await driver.rpc("evm_revert", [snapshot]);
    await tradeRandomly({ driver, chain, traders, markets: markets(), trades: 6, perBlock: 2, seed: 9 });
    await received([client], "retract", undone.length);
    const after = (await indexedTradeIds()).slice(before);
    await until(() => client.of("trade").length >= undone.length + after.length, "the new chain's trades");
    await sleep(300);

    const retracts = client.of("retract").map((event) => RetractEvent.parse(event.data));
    expect(retracts.map((event) => event.id).sort()).toEqual([...undone].sort());
    const live = new Set(client.of("trade").map((event) => event.data.id as string));
    for (const event of retracts) live.delete(event.id);
    expect([...live].sort()).toEqual([...after].sort());
    // Each retraction comes after the trade it retracts.
    for (const retract of client.of("retract")) {
      const announced = client.events.findIndex((event) => event.type === "trade" && event.data.id === retract.data.id);
      expect(announced).toBeLessThan(client.events.indexOf(retract));
    }
  });
});
