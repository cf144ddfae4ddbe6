// Failure drills on the real stack: the bundler, then the API, killed with SIGKILL in the middle of
// a burst of writes. Every write must end in a defined status, and the chain must hold exactly what
// the confirmed writes imply: nothing lost, nothing spent twice.

import { join } from "node:path";
import pg from "pg";
import { type Address, type PublicClient, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MarketAbi, TestUSDCAbi } from "../abis";
import { publicClientFor } from "../api/chain/chain";
import { startApi } from "../scripts/stack/api";
import { startBundler } from "../scripts/stack/bundler";
import { freePort } from "../scripts/stack/ports";
import { type Child, stopChild } from "../scripts/stack/processes";
import { type CallResult, testClient } from "./helpers/client";
import { startTestStack, type TestStack } from "./helpers/stack";
import { tokenFor } from "./helpers/tokens";

const MARKET = "btc-above-150k-end-of-2026";
const SOLD_MARKET = "top-ai-lab-june-2027";

/** A request cut off by a dead server has no answer: the client only knows it may have acted. */
type Answer = CallResult | { status: "cut off"; body: undefined };

describe("write drills: processes killed in the middle of a burst of writes", () => {
  let stack: TestStack;
  let chain: PublicClient;
  let apiUrl: string;
  const restarted: Child[] = [];

  const queryDb = async (sql: string, params: unknown[] = []) => {
    const db = new pg.Client(stack.databaseUrl);
    await db.connect();
    try {
      return (await db.query(sql, params)).rows;
    } finally {
      await db.end();
    }
  };
  const childNamed = (name: string) => [...restarted, ...stack.children].find((child) => child.name === name)!;
  const marketAddress = (slug: string) => stack.deployment.markets.find((m) => m.slug === slug)!.address;
  const usdcUnitsOf = (address: Address) =>
    chain.readContract({
      address: stack.deployment.contracts.usdc,
      abi: TestUSDCAbi,
      functionName: "balanceOf",
      args: [address],
    });
  const tokenUnitsOf = (address: Address, slug: string, outcome: bigint) =>
    chain.readContract({
      address: marketAddress(slug),
      abi: MarketAbi,
      functionName: "balanceOf",
      args: [address, outcome],
    });

  const call = async (token: string, path: string, body: unknown, headers?: Record<string, string>): Promise<Answer> =>
    testClient(apiUrl, token)
      .call("POST", path, { body, headers })
      .catch(() => ({ status: "cut off" as const, body: undefined }));
  /** Polls the write's status until it leaves `pending`, for at most 30 s. */
  const settled = async (txId: string, token: string) => {
    for (let i = 0; i < 300; i++) {
      const { body } = await testClient(apiUrl, token).call("GET", `/api/trade/status/${txId}`);
      if (body.status !== "pending") return body as { status: string; error?: string };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { status: "pending for 30 s" };
  };
  /** Resolves once `count` of the writes since `since` are named, so that the kill lands mid-burst. */
  const namedSubmissions = async (since: Date, count: number) => {
    for (let i = 0; i < 400; i++) {
      const [row] = await queryDb(
        "SELECT count(*)::int AS named FROM api.submission WHERE created_at >= $1 AND user_op_hash IS NOT NULL",
        [since],
      );
      if (row.named >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`fewer than ${count} writes were named`);
  };
  /** A new user with a funded wallet; the run's own id, since the faucet remembers users in a shared database. */
  const traderWith = async (name: string) => {
    const userId = `${name}-${Math.random().toString(36).slice(2, 8)}`;
    const token = await tokenFor(userId);
    const client = testClient(apiUrl, token);
    const address = (await client.call("POST", "/api/wallet/get-or-create")).body.address as Address;
    expect((await client.call("POST", "/api/wallet/faucet")).status).toBe(200);
    return { userId, token, address };
  };
  /** A trader whose account is deployed by one confirmed buy, so that a burst's writes all take the same path. */
  const deployedTrader = async (name: string) => {
    const trader = await traderWith(name);
    const warmUp = await call(trader.token, "/api/trade/buy", { marketSlug: MARKET, outcome: "No", amount: 2 });
    expect((await settled(warmUp.body.txId, trader.token)).status).toBe("confirmed");
    return trader;
  };
  /** `count` buys of 1.00, 1.01, ... USDC of "Yes", each under an Idempotency-Key of its own. */
  const keyedBuys = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, i) => ({
      body: { marketSlug: MARKET, outcome: "Yes", amount: (100 + i) / 100 },
      headers: { "idempotency-key": `${prefix}-${i}-${Date.now()}` },
    }));
  /** Polls until `done` holds, for at most `seconds`; a cut-off write is settled once its API's heartbeat is stale. */
  const eventually = async <T>(what: string, attempt: () => Promise<T | undefined>, seconds = 40): Promise<T> => {
    for (let i = 0; i < seconds * 4; i++) {
      const result = await attempt();
      if (result !== undefined) return result;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`${what}: not within ${seconds} s`);
  };

  beforeAll(async () => {
    stack = await startTestStack();
    apiUrl = stack.apiUrl!;
    chain = publicClientFor(stack.rpcUrl);
  });
  afterAll(async () => {
    for (const child of restarted) await stopChild(child);
    await stack?.dispose();
  });

  it("ends every write of a burst in a defined status when the bundler is killed, and spends only what was confirmed", async () => {
    const buyer = await traderWith("drill-buyer");
    const seller = await traderWith("drill-seller");
    // Both accounts are deployed and the seller holds tokens before the burst.
    for (const trader of [buyer, seller]) {
      const first = await call(trader.token, "/api/trade/buy", {
        marketSlug: SOLD_MARKET,
        outcome: "Google",
        amount: 50,
      });
      expect(first.status).toBe(200);
      expect((await settled(first.body.txId, trader.token)).status).toBe("confirmed");
    }
    const usdcBefore = await usdcUnitsOf(buyer.address);
    const tokensBefore = await tokenUnitsOf(seller.address, SOLD_MARKET, 1n);

    const since = new Date(Date.now() - 1_000);
    const buys = Array.from({ length: 12 }, (_, i) => ({
      marketSlug: MARKET,
      outcome: "Yes",
      amount: (100 + i) / 100,
    }));
    const sells = Array.from({ length: 8 }, (_, i) => ({
      marketSlug: SOLD_MARKET,
      outcome: "Google",
      tokenAmount: (100 + i) / 100,
    }));
    const burst = Promise.all([
      ...buys.map((body) => call(buyer.token, "/api/trade/buy", body)),
      ...sells.map((body) => call(seller.token, "/api/trade/sell", body)),
    ]);
    await namedSubmissions(since, 5);
    await stopChild(childNamed("alto"), 0, "SIGKILL");
    const answers = await burst;

    const port = Number(new URL(stack.bundlerUrl).port);
    const bundler = await startBundler({
      port,
      rpcUrl: stack.rpcUrl,
      executorKey: stack.keys.bundlerExecutor,
      utilityKey: stack.keys.bundlerUtility,
      blockTimeMs: 0,
      logFile: join(stack.dataDir, "logs", "alto-after-kill.log"),
    });
    restarted.push(bundler.child);

    // Each write answered: accepted (200, then settled) or refused as the bundler being down (503).
    expect(answers.filter((a) => a.status !== 200 && a.status !== 503)).toEqual([]);
    for (const answer of answers.filter((a) => a.status === 503))
      expect(answer.body.error.code).toBe("bundler_unavailable");
    const outcomes = await Promise.all(
      answers.map((a, i) =>
        a.status === 200 ? settled(a.body.txId, i < buys.length ? buyer.token : seller.token) : { status: "refused" },
      ),
    );
    expect(outcomes.filter((o) => !["confirmed", "failed", "refused"].includes(o.status))).toEqual([]);
    expect(
      await queryDb("SELECT id FROM api.submission WHERE state = 'prepared' AND created_at >= $1", [since]),
    ).toEqual([]);

    const confirmedBuys = buys.filter((_, i) => outcomes[i]!.status === "confirmed");
    const confirmedSells = sells.filter((_, i) => outcomes[buys.length + i]!.status === "confirmed");
    const spent = confirmedBuys.reduce((sum, b) => sum + parseUnits(String(b.amount), 6), 0n);
    const sold = confirmedSells.reduce((sum, s) => sum + parseUnits(String(s.tokenAmount), 6), 0n);
    expect(usdcBefore - (await usdcUnitsOf(buyer.address))).toBe(spent);
    expect(tokensBefore - (await tokenUnitsOf(seller.address, SOLD_MARKET, 1n))).toBe(sold);
    // The drill means something only if the kill cut the burst: some writes went through, some not.
    expect(confirmedBuys.length + confirmedSells.length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o.status !== "confirmed").length).toBeGreaterThan(0);

    const after = await call(buyer.token, "/api/trade/buy", { marketSlug: MARKET, outcome: "No", amount: 1 });
    expect(after.status).toBe(200);
    expect((await settled(after.body.txId, buyer.token)).status).toBe("confirmed");
  });

  it("settles every write of a burst when the API is killed, and charges a client retrying with its Idempotency-Key once", async () => {
    const buyer = await deployedTrader("drill-retrier");
    const usdcBefore = await usdcUnitsOf(buyer.address);

    const since = new Date(Date.now() - 1_000);
    const writes = keyedBuys("drill", 16);
    const burst = Promise.all(writes.map((w) => call(buyer.token, "/api/trade/buy", w.body, w.headers)));
    await namedSubmissions(since, 4);
    await stopChild(childNamed("api"), 0, "SIGKILL");
    const firstAnswers = await burst;
    const api = await startApi({ ...stack.apiOptions!, logFile: join(stack.dataDir, "logs", "api-after-kill.log") });
    restarted.push(api.child);

    // Once the killed process's heartbeat is stale, the new one settles every submission the kill cut short.
    await eventually("cut-off submissions settled", async () => {
      const prepared = await queryDb("SELECT id FROM api.submission WHERE state = 'prepared' AND created_at >= $1", [
        since,
      ]);
      return prepared.length === 0 ? true : undefined;
    });
    // Every client retries with its key, as a client that lost its answer would, until its key is no
    // longer in progress; each then gets an answer it can act on.
    const retries = await eventually("every key settled", async () => {
      const answers = await Promise.all(writes.map((w) => call(buyer.token, "/api/trade/buy", w.body, w.headers)));
      return answers.some((a) => a.status === 409) ? undefined : answers;
    });
    expect(retries.map((r) => r.status)).toEqual(Array(writes.length).fill(200));
    for (const [i, first] of firstAnswers.entries())
      if (first.status === 200) expect(retries[i]!.body.txId).toBe(first.body.txId);

    const outcomes = await Promise.all(retries.map((r) => settled(r.body.txId, buyer.token)));
    expect(outcomes.filter((o) => !["confirmed", "failed"].includes(o.status))).toEqual([]);
    const spent = writes
      .filter((_, i) => outcomes[i]!.status === "confirmed")
      .reduce((sum, w) => sum + parseUnits(String(w.body.amount), 6), 0n);
    expect(usdcBefore - (await usdcUnitsOf(buyer.address))).toBe(spent);
    expect(firstAnswers.filter((a) => a.status === "cut off").length).toBeGreaterThan(0);
  });

  it("leaves the writes and Idempotency-Keys of a live API alone when another API starts on the same database", async () => {
    const buyer = await deployedTrader("drill-neighbour");
    const usdcBefore = await usdcUnitsOf(buyer.address);
    const since = new Date(Date.now() - 1_000);
    const writes = keyedBuys("neighbour", 10);
    const burst = Promise.all(writes.map((w) => call(buyer.token, "/api/trade/buy", w.body, w.headers)));

    // Writes of API A held in flight: prepared rows whose next update waits on this transaction's row
    // locks, and one more write whose key is claimed while reading its market waits on a table lock.
    const held = new pg.Client(stack.databaseUrl);
    await held.connect();
    await held.query("BEGIN");
    let prepared: string[] = [];
    for (const deadline = Date.now() + 10_000; prepared.length === 0 && Date.now() < deadline; ) {
      const { rows } = await held.query(
        "SELECT id FROM api.submission WHERE user_id = $1 AND created_at >= $2 AND state = 'prepared' FOR UPDATE",
        [buyer.userId, since],
      );
      prepared = rows.map((r) => r.id as string);
    }
    expect(prepared.length).toBeGreaterThan(0);
    await held.query(`LOCK TABLE "${stack.indexerSchema}".market IN ACCESS EXCLUSIVE MODE`);
    const lateWrite = {
      body: { marketSlug: MARKET, outcome: "Yes", amount: 1.5 },
      headers: { "idempotency-key": `neighbour-late-${Date.now()}` },
    };
    const late = call(buyer.token, "/api/trade/buy", lateWrite.body, lateWrite.headers);
    await eventually("the late write's key claimed", async () => {
      const rows = await queryDb("SELECT 1 FROM api.idempotency_key WHERE user_id = $1 AND key = $2", [
        buyer.userId,
        lateWrite.headers["idempotency-key"],
      ]);
      return rows.length > 0 ? true : undefined;
    });

    // API B starts meanwhile; its start-up reconciliation runs before it answers /health.
    const second = await startApi({
      ...stack.apiOptions!,
      port: await freePort(),
      logFile: join(stack.dataDir, "logs", "api-neighbour.log"),
    });
    restarted.push(second.child);
    expect(
      await queryDb("SELECT status, submission_id FROM api.idempotency_key WHERE user_id = $1 AND key = $2", [
        buyer.userId,
        lateWrite.headers["idempotency-key"],
      ]),
    ).toEqual([{ status: null, submission_id: null }]);
    // A retry of the held write through B is told it is in progress, not acted on a second time.
    const retry = await testClient(second.url, buyer.token)
      .call("POST", "/api/trade/buy", { body: lateWrite.body, headers: lateWrite.headers })
      .catch(() => ({ status: "cut off" as const, body: undefined }));
    expect(retry.status).toBe(409);
    await held.query("COMMIT");
    await held.end();

    const answers = [...(await burst), await late];
    expect(answers.map((a) => a.status)).toEqual(Array(answers.length).fill(200));
    const outcomes = await Promise.all(answers.map((a) => settled(a.body.txId, buyer.token)));
    expect(outcomes.map((o) => o.status)).toEqual(Array(answers.length).fill("confirmed"));
    expect(await queryDb("SELECT state FROM api.submission WHERE id = ANY($1::uuid[])", [prepared])).toEqual(
      prepared.map(() => ({ state: "submitted" })),
    );
    const spent = [...writes, lateWrite].reduce((sum, w) => sum + parseUnits(String(w.body.amount), 6), 0n);
    expect(usdcBefore - (await usdcUnitsOf(buyer.address))).toBe(spent);
  });
});
