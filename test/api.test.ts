// Contract tests of the read API against the specification's field tables, on the real stack.

import pg from "pg";
import { getAddress, keccak256, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { candlesSql } from "../api/db/prices";
import { recentTradesSql } from "../api/db/trades";
import { toUsdcUnits } from "../constants";
import { waitForIndexer } from "../scripts/stack/indexer";
import { type ChainDriver, chainDriver } from "./helpers/chain";
import { expectEnvelope, getJson } from "./helpers/http";
import { traderAddresses } from "./helpers/scenario";
import { startTestStack, type TestStack } from "./helpers/stack";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const HOUR = 3600;

describe("read API", () => {
  let stack: TestStack;
  let api: string;
  let driver: ChainDriver;
  let db: pg.Client;
  const traders = traderAddresses(3, 0x500);
  const get = (path: string) => getJson(api, path);

  beforeAll(async () => {
    stack = await startTestStack();
    api = stack.apiUrl!;
    driver = chainDriver(stack.rpcUrl, stack.deployment);
    db = new pg.Client(stack.databaseUrl);
    await db.connect();
    const [first, second] = stack.deployment.markets;
    await driver.fundTraders(traders, toUsdcUnits(10_000), [first!.address, second!.address]);
    // Trades three hours apart, so that the hours between them have no trades of their own.
    await driver.mineBlock([driver.buy(traders[0]!, first!.address, 0, toUsdcUnits(50))]);
    await driver.rpc("evm_increaseTime", [3 * HOUR]);
    await driver.mineBlock([driver.buy(traders[1]!, first!.address, 1, toUsdcUnits(20))]);
    await driver.mineBlock([
      driver.buy(traders[2]!, second!.address, 0, toUsdcUnits(5)),
      driver.sell(traders[0]!, first!.address, 0, 1_000_000n),
    ]);
    await db.query(
      `INSERT INTO api.market_draft (slug, id, title, description, outcomes, closes_at, b, fee_bps)
       VALUES ('draft-market', $1, 'A draft', 'Resolves by the test.', '{Up,Down,Flat}', now() + interval '30 days', 1000000000, 50)`,
      [keccak256(toHex("draft-market"))],
    );
    await waitForIndexer({ indexerUrl: stack.indexerUrl!, rpcUrl: stack.rpcUrl });
  });
  afterAll(async () => {
    await db?.end();
    await stack?.dispose();
  });

  const expectListEntry = (market: any) => {
    expect(market).toEqual({
      id: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      slug: expect.any(String),
      title: expect.any(String),
      status: expect.stringMatching(/^(pending|active|closed|resolved|voided)$/),
      outcomes: expect.any(Array),
      prices: expect.any(Object),
      volume: expect.any(Number),
      liquidity: expect.any(Number),
      createdAt: expect.stringMatching(ISO),
      closesAt: expect.stringMatching(ISO),
    });
    expect(Object.keys(market.prices)).toEqual(market.outcomes);
    for (const price of Object.values(market.prices)) expect(price).toBeTypeOf("number");
    expect(market.id).toBe(keccak256(toHex(market.slug)));
  };

  describe("GET /api/markets", () => {
    it("lists every market with the list fields and the default page", async () => {
      const { status, body } = await get("/api/markets");
      expect(status).toBe(200);
      expect(body).toMatchObject({ limit: 50, offset: 0, total: stack.deployment.markets.length + 1 });
      expect(body.markets).toHaveLength(body.total);
      body.markets.forEach(expectListEntry);
      const traded = body.markets.find((m: any) => m.slug === stack.deployment.markets[0]!.slug);
      expect(traded.volume).toBeGreaterThan(70);
      expect(traded.prices.Yes + traded.prices.No).toBeCloseTo(1, 9);
    });

    it("filters by status and pages", async () => {
      const pending = await get("/api/markets?status=pending");
      expect(pending.body.markets.map((m: any) => m.slug)).toEqual(["draft-market"]);
      expect(pending.body.markets[0].prices).toEqual({ Up: 1 / 3, Down: 1 / 3, Flat: 1 / 3 });
      const active = await get("/api/markets?status=active&limit=2&offset=1");
      expect(active.body).toMatchObject({ total: stack.deployment.markets.length, limit: 2, offset: 1 });
      expect(active.body.markets).toHaveLength(2);
      expect(active.body.markets.every((m: any) => m.status === "active")).toBe(true);
    });

    it.each([
      ["status=bogus", "status"],
      ["offset=-1", "offset"],
      ["limit=0", "limit"],
      ["limit=201", "limit"],
      ["limit=abc", "limit"],
    ])("answers 400 naming the parameter for %s", async (query, parameter) => {
      const { status, body } = await get(`/api/markets?${query}`);
      expect(status).toBe(400);
      expectEnvelope(body, "invalid_parameter");
      expect(body.error.details.parameter).toBe(parameter);
    });
  });

  describe("GET /api/markets/:slug", () => {
    it("answers the detail fields", async () => {
      const market = stack.deployment.markets[2]!;
      const { status, body } = await get(`/api/markets/${market.slug}`);
      expect(status).toBe(200);
      const { description, contractAddress, chainId, resolvedOutcome, b, feeBps, ...listFields } = body;
      expectListEntry(listFields);
      expect({ b, feeBps }).toEqual({ b: 1500, feeBps: 75 });
      expect(description).toEqual(expect.any(String));
      expect(contractAddress).toBe(getAddress(market.address));
      expect(chainId).toBe(2010111);
      expect(resolvedOutcome).toBeNull();
      expect(body.outcomes).toHaveLength(3);
    });

    it("serves drafts as pending", async () => {
      const { status, body } = await get("/api/markets/draft-market");
      expect(status).toBe(200);
      expect(body).toMatchObject({ status: "pending", outcomes: ["Up", "Down", "Flat"], chainId: 2010111, volume: 0 });
    });

    it("answers 404 in the envelope for an unknown slug", async () => {
      const { status, body } = await get("/api/markets/no-such-market");
      expect(status).toBe(404);
      expectEnvelope(body, "not_found");
    });
  });

  describe("GET /api/markets/:slug/prices", () => {
    const slug = () => stack.deployment.markets[0]!.slug;

    it("answers hourly points keyed by outcome, carrying prices through hours without trades", async () => {
      const { status, body } = await get(`/api/markets/${slug()}/prices`);
      expect(status).toBe(200);
      expect(body).toMatchObject({ slug: slug(), interval: "1h" });
      expect(body.prices.length).toBeGreaterThanOrEqual(4);
      for (const point of body.prices) {
        expect(Object.keys(point).sort()).toEqual(["No", "Yes", "timestamp"]);
        expect(point.timestamp).toMatch(ISO);
        expect(point.Yes + point.No).toBeCloseTo(1, 9);
      }
      const times = body.prices.map((p: any) => Date.parse(p.timestamp));
      for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBe(HOUR * 1000);
      // The first bucket holds the first trade; the next two have none and repeat its close.
      expect(body.prices[1].Yes).toBe(body.prices[0].Yes);
      expect(body.prices[2].Yes).toBe(body.prices[0].Yes);
      expect(body.prices[3].Yes).not.toBe(body.prices[0].Yes);
    });

    it("honours interval, from and to", async () => {
      const all = (await get(`/api/markets/${slug()}/prices`)).body.prices;
      const from = all[1].timestamp;
      const to = all[2].timestamp;
      const { body } = await get(`/api/markets/${slug()}/prices?from=${from}&to=${to}`);
      expect(body.prices.map((p: any) => p.timestamp)).toEqual([from, to]);
      const daily = await get(`/api/markets/${slug()}/prices?interval=1d`);
      expect(daily.status).toBe(200);
      expect(daily.body.interval).toBe("1d");
    });

    it.each([
      ["interval=5m", "interval"],
      ["from=yesterday", "from"],
      ["from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z", "from"],
      ["from=2020-01-01T00:00:00Z", "from"],
    ])("answers 400 naming the parameter for %s", async (query, parameter) => {
      const { status, body } = await get(`/api/markets/${slug()}/prices?${query}`);
      expect(status).toBe(400);
      expectEnvelope(body, "invalid_parameter");
      expect(body.error.details.parameter).toBe(parameter);
    });

    it("answers 404 for an unknown slug", async () => {
      const { status, body } = await get("/api/markets/no-such-market/prices");
      expect(status).toBe(404);
      expectEnvelope(body, "not_found");
    });
  });

  describe("GET /api/trades/recent", () => {
    it("answers the newest trades with the recent-trade fields", async () => {
      const { status, body } = await get("/api/trades/recent");
      expect(status).toBe(200);
      expect(body.total).toBe(4);
      expect(body.trades).toHaveLength(4);
      for (const trade of body.trades) {
        expect(trade).toEqual({
          txId: expect.stringMatching(/^0x[0-9a-f]{64}$/),
          marketSlug: expect.any(String),
          outcome: expect.any(String),
          side: expect.stringMatching(/^(buy|sell)$/),
          amount: expect.any(Number),
          price: expect.any(Number),
          trader: expect.stringMatching(/^0x[0-9a-f]{4}…[0-9a-f]{4}$/),
          timestamp: expect.stringMatching(ISO),
        });
      }
      const times = body.trades.map((t: any) => Date.parse(t.timestamp));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      expect(body.trades.map((t: any) => t.side)).toContain("sell");
    });

    it("applies limit and rejects limit=101", async () => {
      expect((await get("/api/trades/recent?limit=1")).body.trades).toHaveLength(1);
      const { status, body } = await get("/api/trades/recent?limit=101");
      expect(status).toBe(400);
      expect(body.error.details.parameter).toBe("limit");
    });
  });

  it("serves repeated reads from its cache until the indexer commits new rows", async () => {
    await get("/api/trades/recent?limit=5");
    const cached = await get("/api/trades/recent?limit=5");
    expect(cached.headers.get("x-cache")).toBe("hit");
    const before = cached.body.total;

    await driver.mineBlock([driver.buy(traders[2]!, stack.deployment.markets[1]!.address, 1, toUsdcUnits(2))]);
    await waitForIndexer({ indexerUrl: stack.indexerUrl!, rpcUrl: stack.rpcUrl });
    // The notification travels from Ponder's commit to the API's listener: far less than the cache's
    // one-second lifetime, which this wait stays well inside.
    let fresh = await get("/api/trades/recent?limit=5");
    for (let i = 0; i < 10 && fresh.body.total === before; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      fresh = await get("/api/trades/recent?limit=5");
    }
    expect(fresh.body.total).toBe(before + 1);
    expect(fresh.body.trades[0].marketSlug).toBe(stack.deployment.markets[1]!.slug);
  });

  it("answers unknown routes with the 404 envelope", async () => {
    const { status, body } = await get("/api/nothing-here");
    expect(status).toBe(404);
    expectEnvelope(body, "route_not_found");
  });

  it("reports health, readiness and metrics", async () => {
    expect((await get("/health")).body).toEqual({ ok: true });
    expect((await get("/ready")).body).toEqual({ ok: true, database: true, indexer: true });
    const metrics = await fetch(`${api}/metrics`);
    expect(await metrics.text()).toContain("http_request_duration_seconds_bucket");
    const docs = await fetch(`${api}/docs`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get("content-type")).toContain("text/html");
    expect(await docs.text()).toContain("/openapi/api.json");
  });

  it("sends CORS headers on reads and a request id", async () => {
    const response = await fetch(`${api}/api/markets`, { headers: { origin: "http://example.test" } });
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("x-request-id")).toBeTruthy();
    const preflight = await fetch(`${api}/api/markets`, {
      method: "OPTIONS",
      headers: { origin: "http://example.test", "access-control-request-method": "GET" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("GET");
  });

  describe("query plans with 100,000 trades", () => {
    // Copies of the indexer's tables with their indexes, filled with synthetic rows: the planner
    // sees the real schema at scale without a chain producing 100,000 trades first.
    const scale = "explain_scale";
    const planOf = async (sql: string, values: unknown[]) => {
      const { rows } = await db.query(`EXPLAIN (FORMAT JSON) ${sql}`, values);
      return JSON.stringify(rows[0]["QUERY PLAN"]);
    };

    beforeAll(async () => {
      const source = stack.indexerSchema;
      stack.extraSchemas.push(scale);
      await db.query(`CREATE SCHEMA ${scale}`);
      for (const table of ["market", "trade", "price_candle"]) {
        await db.query(`CREATE TABLE ${scale}.${table} (LIKE "${source}".${table} INCLUDING ALL)`);
      }
      await db.query(`
        INSERT INTO ${scale}.market
        SELECT '0x' || lpad(to_hex(i), 40, '0'), '0x' || lpad(to_hex(i), 64, '0'), 'market-' || i, 'Market ' || i, 'd',
               '{Yes,No}', 'active', '{0.5,0.5}', '{500000000000000000,500000000000000000}', '{0,0}', 0, 0, 1000000000, 50, 0, 1000,
               NULL, 1700000000, 1900000000, 1, '0x00'
          FROM generate_series(1, 100) i`);
      await db.query(`
        INSERT INTO ${scale}.trade
        SELECT '0x' || lpad(to_hex(i), 64, '0') || '-0', '0x' || lpad(to_hex(1 + i % 100), 40, '0'), '0x' || lpad(to_hex(i % 500), 40, '0'),
               i % 2, i % 3 = 0, 1000000, 1900000, 5000, 0.52, '{0.52,0.48}', '{520000000000000000,480000000000000000}',
               i / 10, i % 10, 1700000000 + i * 26, '0x' || lpad(to_hex(i), 64, '0'), NULL
          FROM generate_series(1, 100000) i`);
      await db.query(`
        INSERT INTO ${scale}.price_candle
        SELECT '0x' || lpad(to_hex(m), 40, '0'), iv.name, (1700000000 / iv.size + h) * iv.size,
               '{0.5,0.5}', '{0.6,0.6}', '{0.4,0.4}', '{0.52,0.48}', 1000000, 3
          FROM generate_series(1, 100) m, generate_series(0, 719) h,
               (VALUES ('1h', 3600), ('4h', 14400), ('1d', 86400)) iv(name, size)`);
      await db.query(`ANALYZE ${scale}.market; ANALYZE ${scale}.trade; ANALYZE ${scale}.price_candle`);
    });

    it("reads recent trades through an index, not a scan of the trade table", async () => {
      const plan = await planOf(recentTradesSql(scale), [20]);
      expect(scannedSequentially(plan, "trade")).toBe(false);
      expect(plan).toContain("Index");
    });

    it("reads 30 days of hourly prices from the candle index", async () => {
      const market = `0x${(42).toString(16).padStart(40, "0")}`;
      const plan = await planOf(candlesSql(scale), [market, "1h", 1700000000, 1700000000 + 30 * 86400]);
      expect(scannedSequentially(plan, "price_candle")).toBe(false);
      expect(plan).toContain("Index");
    });
  });
});

/** Whether an EXPLAIN (FORMAT JSON) plan reads `table` with a sequential scan. */
function scannedSequentially(plan: string, table: string): boolean {
  const visit = (node: any): boolean =>
    (node["Node Type"] === "Seq Scan" && node["Relation Name"] === table) || (node.Plans ?? []).some(visit);
  return visit(JSON.parse(plan)[0].Plan);
}
