// Read limits per client address hold across API processes, counted in PostgreSQL or in Redis;
// a burst past the limit gets 429 in the envelope with Retry-After and the RateLimit headers, and
// tips have a write limit per user. The API sits behind one trusted proxy here (TRUST_PROXY_HOPS=1),
// so that each test speaks for a client address of its own through X-Forwarded-For.

import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi } from "../scripts/stack/api";
import { freePort } from "../scripts/stack/ports";
import { type Child, startChild, stopChild, waitUntil } from "../scripts/stack/processes";
import { type CallResult, testClient } from "./helpers/client";
import { expectEnvelope } from "./helpers/http";
import { startTestStack, type TestStack } from "./helpers/stack";
import { tokenFor } from "./helpers/tokens";

const LIMIT = 20;
const POLICY = `"reads";q=${LIMIT};w=60`;

type Api = ReturnType<typeof testClient>;

/** A GET as the client at `address` (what the trusted proxy would write). */
const read = (api: Api, address: string, path = "/api/markets") =>
  api.call("GET", path, { headers: { "x-forwarded-for": address } });

/** `count` reads at once from `address`, spread over `apis` in turn. */
const burst = (apis: Api[], address: string, count: number) =>
  Promise.all(Array.from({ length: count }, (_, i) => read(apis[i % apis.length]!, address)));

const statuses = (answers: CallResult[]) => answers.map((answer) => answer.status).sort();

async function refusalsOn(url: string, limit: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split("\n").find((row) => row.startsWith(`rate_limit_refusals_total{limit="${limit}"}`));
  return line ? Number(line.split(" ").at(-1)) : 0;
}

function expectRefused(answer: CallResult) {
  expect(answer.status).toBe(429);
  expectEnvelope(answer.body, "rate_limited");
  expect(answer.body.error.details).toMatchObject({ limit: "reads", max: LIMIT, windowSeconds: 60 });
  const retryAfter = Number(answer.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(answer.body.error.details.retryAfterSeconds).toBe(retryAfter);
  expect(answer.headers.get("ratelimit-policy")).toBe(POLICY);
  expect(answer.headers.get("ratelimit")).toMatch(/^"reads";r=0;t=\d+$/);
}

describe("read limits", () => {
  let stack: TestStack;
  const extra: Child[] = [];
  let first: Api;
  let second: { url: string; api: Api };
  const apiEnv = {
    READ_LIMIT: `${LIMIT}/1m`,
    TRUST_PROXY_HOPS: "1",
    WRITE_LIMIT_TIPS: "2/1h",
    STREAM_PING_MS: "50",
  };

  /** Another API process on the stack's database, with extra settings. */
  const startAnother = async (name: string, env: Record<string, string> = {}) => {
    const started = await startApi({
      ...stack.apiOptions!,
      port: await freePort(),
      logFile: join(stack.dataDir, "logs", `api-${name}.log`),
      env: { ...stack.apiOptions!.env, ...env },
      onSpawn: (child) => extra.push(child),
    });
    return { url: started.url, api: testClient(started.url), child: started.child };
  };

  beforeAll(async () => {
    stack = await startTestStack({ apiEnv });
    first = testClient(stack.apiUrl!);
    second = await startAnother("second");
  });
  afterAll(async () => {
    for (const child of extra) await stopChild(child);
    await stack?.dispose();
  });

  it("lets a burst from one address through up to the limit and answers the rest 429 with Retry-After and the RateLimit headers", async () => {
    const refusedBefore = await refusalsOn(stack.apiUrl!, "reads");
    const answers = await burst([first], "198.51.100.1", LIMIT + 5);
    expect(statuses(answers)).toEqual([...Array(LIMIT).fill(200), ...Array(5).fill(429)]);
    const allowed = answers.filter((answer) => answer.status === 200);
    for (const answer of allowed) expect(answer.headers.get("ratelimit-policy")).toBe(POLICY);
    const remaining = allowed.map((answer) => Number(/;r=(\d+);t=\d+$/.exec(answer.headers.get("ratelimit")!)![1]));
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: LIMIT }, (_, i) => i));
    for (const answer of answers.filter((answer) => answer.status === 429)) expectRefused(answer);
    expect((await refusalsOn(stack.apiUrl!, "reads")) - refusedBefore).toBe(5);
  });

  it("counts each address apart, believes only the entry the proxy wrote, and never limits probes or metrics", async () => {
    expect(statuses(await burst([first], "198.51.100.2", LIMIT))).toEqual(Array(LIMIT).fill(200));
    expectRefused(await read(first, "198.51.100.2"));
    // A client cannot escape by writing another address in front of the proxy's.
    expectRefused(await read(first, "203.0.113.9, 198.51.100.2"));
    expect((await read(first, "198.51.100.3")).status).toBe(200);
    for (const path of ["/health", "/ready", "/metrics"])
      expect((await read(first, "198.51.100.2", path)).status).not.toBe(429);
  });

  it("shares the count between two API processes on one database", async () => {
    const answers = await burst([first, second.api], "198.51.100.4", LIMIT + 6);
    expect(statuses(answers)).toEqual([...Array(LIMIT).fill(200), ...Array(6).fill(429)]);
    expectRefused(await read(first, "198.51.100.4"));
    expectRefused(await read(second.api, "198.51.100.4"));
  });

  it("counts a stream connection once, however long it stays and whatever it receives", async () => {
    const address = "198.51.100.5";
    const connection = new AbortController();
    const response = await fetch(`${stack.apiUrl}/api/trade/stream`, {
      headers: { "x-forwarded-for": address, accept: "text/event-stream" },
      signal: connection.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let received = "";
    while ((received.match(/: ping/g) ?? []).length < 5)
      received += new TextDecoder().decode((await reader.read()).value);
    connection.abort();
    // The connect and this read: two of the limit.
    expect((await read(first, address)).headers.get("ratelimit")).toMatch(
      new RegExp(`^"reads";r=${LIMIT - 2};t=\\d+$`),
    );
  });

  it("limits tips per user: the limit's number go out, the next is 429 and a refused one does not count", async () => {
    const author = await tokenFor("limits-author", { roles: ["verified"] });
    const post = await first.call("POST", "/api/blog", { token: author, body: { title: "Tipped", body: "…" } });
    expect(post.status).toBe(201);
    const tipper = await tokenFor("limits-tipper");
    expect((await first.call("POST", "/api/wallet/get-or-create", { token: tipper })).status).toBe(200);
    expect((await first.call("POST", "/api/wallet/faucet", { token: tipper })).status).toBe(200);
    const tip = (api: Api, amount: number) =>
      api.call("POST", "/api/tips", { token: tipper, body: { context: `blog:${post.body.id}`, amount } });
    expect((await tip(first, 0.001)).status).toBe(400);
    const sent = [await tip(first, 0.5), await tip(second.api, 0.5)];
    expect(sent.map((answer) => answer.status)).toEqual([200, 200]);
    expect(sent[1]!.headers.get("ratelimit")).toMatch(/^"tips";r=0;t=\d+$/);
    const refused = await tip(second.api, 0.5);
    expect(refused.status).toBe(429);
    expectEnvelope(refused.body, "rate_limited");
    expect(refused.body.error.details).toMatchObject({ limit: "tips", max: 2, windowSeconds: 3600 });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3500);
    expect(await refusalsOn(second.url, "tips")).toBe(1);
  });

  describe("in Redis (REDIS_URL)", () => {
    let redisChild: Child;
    let redis: Redis;
    let withRedis: { url: string; api: Api }[];
    const prefix = `pm-test-${Math.random().toString(36).slice(2, 8)}:`;

    beforeAll(async () => {
      // A Redis of the test's own, so that it can be stopped without touching the machine's.
      const port = await freePort();
      redisChild = startChild(
        "redis",
        "redis-server",
        ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        { logFile: join(stack.dataDir, "logs", "redis.log") },
      );
      extra.push(redisChild);
      redis = new Redis(port, "127.0.0.1", { lazyConnect: true, maxRetriesPerRequest: 1 });
      redis.on("error", () => {});
      await waitUntil("redis", async () => (await redis.ping()) === "PONG", { child: redisChild, timeoutMs: 10_000 });
      const env = { REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_KEY_PREFIX: prefix };
      withRedis = await Promise.all([startAnother("redis-1", env), startAnother("redis-2", env)]);
    });
    afterAll(() => redis?.disconnect());

    it("shares the count between two API processes through Redis, not the database", async () => {
      const address = "198.51.100.1";
      // The address spent its reads in PostgreSQL above; Redis counts afresh.
      const answers = await burst(
        withRedis.map((process) => process.api),
        address,
        LIMIT + 4,
      );
      expect(statuses(answers)).toEqual([...Array(LIMIT).fill(200), ...Array(4).fill(429)]);
      for (const answer of answers.filter((answer) => answer.status === 429)) expectRefused(answer);
      expect(Number(await redis.get(`${prefix}ratelimit:reads:${address}`))).toBe(LIMIT + 4);
      expect(await redis.pttl(`${prefix}ratelimit:reads:${address}`)).toBeGreaterThan(0);
    });

    it("lets reads pass uncounted while Redis is down, and refuses rate-limited writes with 503", async () => {
      await stopChild(redisChild);
      const { url, api } = withRedis[0]!;
      const answer = await read(api, "198.51.100.6");
      expect(answer.status).toBe(200);
      expect(answer.headers.get("ratelimit")).toBeNull();
      const token = await tokenFor("limits-redis-down", { roles: ["verified"] });
      const post = await api.call("POST", "/api/blog", { token, body: { title: "Down", body: "…" } });
      expect(post.status).toBe(503);
      expectEnvelope(post.body, "rate_limits_unavailable");
      const metrics = await (await fetch(`${url}/metrics`)).text();
      expect(metrics).toMatch(/^rate_limit_store_errors_total\{limit="reads"\} [1-9]/m);
    });
  });
});
