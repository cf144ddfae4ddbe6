// Trading through the API: sponsored user operations from a user's smart account, confirmations
// from the indexer, and every error the specification lists.

import { join } from "node:path";
import pg from "pg";
import type { Address, PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MarketAbi } from "../abis";
import { publicClientFor } from "../api/chain/chain";
import { usdcNumber } from "../constants";
import { startApi } from "../scripts/stack/api";
import { startBundler } from "../scripts/stack/bundler";
import { freePort } from "../scripts/stack/ports";
import { type Child, stopChild } from "../scripts/stack/processes";
import { testClient } from "./helpers/client";
import { startPaymasterService } from "./helpers/erc7677";
import { expectEnvelope } from "./helpers/http";
import { startTestStack, type TestStack } from "./helpers/stack";
import { tokenFor } from "./helpers/tokens";

describe("trading through the API", () => {
  let stack: TestStack;
  let chain: PublicClient;
  let token: string;
  let wallet: Address;
  let restartedBundler: Child | undefined;
  let restartedApi: Child | undefined;

  let client: ReturnType<typeof testClient>;
  const market = (i: number) => stack.deployment.markets[i]!;
  const queryDb = async (sql: string) => {
    const client = new pg.Client(stack.databaseUrl);
    await client.connect();
    try {
      return await client.query(sql);
    } finally {
      await client.end();
    }
  };
  const usdcOf = async () => (await client.call("GET", "/api/wallet/balance")).body.balances[0].amount as string;
  const confirmed = (txId: string) => confirmedFor(txId, token);
  const confirmedFor = async (txId: string, bearer: string) => {
    for (let i = 0; i < 200; i++) {
      const { body } = await client.call("GET", `/api/trade/status/${txId}`, { token: bearer });
      if (body.status !== "pending") return body;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`${txId} still pending`);
  };

  beforeAll(async () => {
    stack = await startTestStack();
    client = testClient(stack.apiUrl!, () => token);
    chain = publicClientFor(stack.rpcUrl);
    token = await tokenFor("trader-1");
    wallet = (await client.call("POST", "/api/wallet/get-or-create")).body.address;
    expect((await client.call("POST", "/api/wallet/faucet")).status).toBe(200);
  });
  afterAll(async () => {
    if (restartedBundler) await stopChild(restartedBundler);
    if (restartedApi) await stopChild(restartedApi);
    await stack?.dispose();
  });

  it("buys, confirms through the indexer, sells, and claims after resolution, with no ETH in the account", async () => {
    const buy = await client.call("POST", "/api/trade/buy", {
      body: { marketSlug: market(0).slug, outcome: "Yes", amount: 25 },
    });
    expect(buy.status).toBe(200);
    expect(buy.body).toMatchObject({
      marketSlug: market(0).slug,
      outcome: "Yes",
      amount: 25,
      status: "pending",
      txId: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(buy.body.tokensReceived).toBeGreaterThan(25);
    expect(buy.body.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    const status = await confirmed(buy.body.txId);
    expect(status).toMatchObject({
      status: "confirmed",
      txHash: buy.body.txHash,
      blockNumber: expect.any(Number),
      confirmedAt: expect.any(String),
    });

    const tokens = await chain.readContract({
      address: market(0).address,
      abi: MarketAbi,
      functionName: "balanceOf",
      args: [wallet, 0n],
    });
    expect(usdcNumber(tokens)).toBeCloseTo(buy.body.tokensReceived, 6);
    expect(await usdcOf()).toBe("975");

    const sell = await client.call("POST", "/api/trade/sell", {
      body: { marketSlug: market(0).slug, outcome: "Yes", tokenAmount: 10 },
    });
    expect(sell.status).toBe(200);
    expect(sell.body).toMatchObject({ tokensSold: 10, status: "pending" });
    expect((await confirmed(sell.body.txId)).status).toBe("confirmed");

    const claimEarly = await client.call("POST", "/api/trade/claim", { body: { marketSlug: market(0).slug } });
    expect(claimEarly.status).toBe(400);
    expectEnvelope(claimEarly.body, "market_not_resolved");

    const admin = await tokenFor("operator-ann", { roles: ["admin"] });
    const resolved = await client.call("POST", `/api/markets/${market(0).slug}/resolve`, {
      body: { outcome: "Yes" },
      token: admin,
    });
    expect(resolved.status).toBe(200);
    const held = await chain.readContract({
      address: market(0).address,
      abi: MarketAbi,
      functionName: "balanceOf",
      args: [wallet, 0n],
    });
    for (
      let i = 0;
      i < 100 && (await client.call("GET", `/api/markets/${market(0).slug}`)).body.status !== "resolved";
      i++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const before = Number(await usdcOf());
    const claim = await client.call("POST", "/api/trade/claim", { body: { marketSlug: market(0).slug } });
    expect(claim.status).toBe(200);
    expect(claim.body.usdcClaimed).toBeCloseTo(usdcNumber(held), 6);
    expect((await confirmed(claim.body.txId)).status).toBe("confirmed");
    expect(Number(await usdcOf())).toBeCloseTo(before + usdcNumber(held), 6);
    expect(await chain.getBalance({ address: wallet })).toBe(0n);
  });

  it("holds a status request with waitMs until the write is confirmed, and refuses a waitMs out of range", async () => {
    // Not 1 USDC: the bundler test below takes a recent submission of 1 USDC for its own.
    const buy = await client.call("POST", "/api/trade/buy", {
      body: { marketSlug: market(1).slug, outcome: "Yes", amount: 1.25 },
    });
    expect(buy.status).toBe(200);
    const held = await client.call("GET", `/api/trade/status/${buy.body.txId}?waitMs=10000`);
    expect(held.status).toBe(200);
    expect(held.body).toMatchObject({ txId: buy.body.txId, status: "confirmed", blockNumber: expect.any(Number) });
    for (const waitMs of ["-1", "abc", "30001", "1.5"]) {
      const refused = await client.call("GET", `/api/trade/status/${buy.body.txId}?waitMs=${waitMs}`);
      expect(refused.status, waitMs).toBe(400);
      expectEnvelope(refused.body, "invalid_parameter");
      expect(refused.body.error.details.parameter, waitMs).toBe("waitMs");
    }
  });

  it.each([
    [{ marketSlug: "no-such-market", outcome: "Yes", amount: 1 }, 404, "not_found"],
    [{ marketSlug: "btc-above-150k-end-of-2026", outcome: "Maybe", amount: 1 }, 400, "invalid_parameter"],
    [{ marketSlug: "btc-above-150k-end-of-2026", outcome: "Yes", amount: 0 }, 400, "invalid_parameter"],
    [{ marketSlug: "btc-above-150k-end-of-2026", outcome: "Yes", amount: -5 }, 400, "invalid_parameter"],
    [{ marketSlug: "btc-above-150k-end-of-2026", outcome: "Yes", amount: 1.0000001 }, 400, "invalid_parameter"],
    [{ marketSlug: "btc-above-150k-end-of-2026", outcome: "Yes", amount: 5000 }, 400, "invalid_parameter"],
    [{ marketSlug: "fed-cuts-rates-march-2027", outcome: "Yes", amount: 1 }, 409, "market_not_active"],
  ])("buy %j answers %i", async (body, status, code) => {
    const response = await client.call("POST", "/api/trade/buy", { body });
    expect(response.status).toBe(status);
    expectEnvelope(response.body, code);
  });

  it("answers 401 to writes without a valid token", async () => {
    for (const path of ["/api/trade/buy", "/api/trade/sell", "/api/trade/claim"]) {
      const response = await client.call("POST", path, {
        body: { marketSlug: market(1).slug, outcome: "Yes", amount: 1, tokenAmount: 1 },
        token: "not-a-token",
      });
      expect(response.status, path).toBe(401);
      expectEnvelope(response.body, "unauthorized");
    }
    expect((await client.call("GET", `/api/trade/status/0x${"00".repeat(32)}`, { token: "not-a-token" })).status).toBe(
      401,
    );
  });

  it("answers 400 naming tokenAmount for selling more than the wallet holds, and minPrice above the quote", async () => {
    const tooMany = await client.call("POST", "/api/trade/sell", {
      body: {
        marketSlug: market(1).slug,
        outcome: "Yes",
        tokenAmount: 1_000_000,
      },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details.parameter).toBe("tokenAmount");
    await client
      .call("POST", "/api/trade/buy", { body: { marketSlug: market(1).slug, outcome: "Yes", amount: 2 } })
      .then((r) => confirmed(r.body.txId));
    const greedy = await client.call("POST", "/api/trade/sell", {
      body: {
        marketSlug: market(1).slug,
        outcome: "Yes",
        tokenAmount: 1,
        minPrice: 0.99,
      },
    });
    expect(greedy.status).toBe(400);
    expect(greedy.body.error.details.parameter).toBe("minPrice");
  });

  it("spends nothing when maxPrice is below the market price", async () => {
    const before = await usdcOf();
    const response = await client.call("POST", "/api/trade/buy", {
      body: {
        marketSlug: market(1).slug,
        outcome: "Yes",
        amount: 5,
        maxPrice: 0.2,
      },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.details.parameter).toBe("maxPrice");
    expect(await usdcOf()).toBe(before);
  });

  it("answers 404 for claims without a position and for another user's transaction", async () => {
    const buy = await client.call("POST", "/api/trade/buy", {
      body: { marketSlug: market(1).slug, outcome: "No", amount: 2 },
    });
    expect(buy.status).toBe(200);
    const other = await tokenFor("trader-2");
    expect((await client.call("GET", `/api/trade/status/${buy.body.txId}`, { token: other })).status).toBe(404);
    await client.call("POST", "/api/wallet/get-or-create", { token: other });
    const claim = await client.call("POST", "/api/trade/claim", { body: { marketSlug: market(0).slug }, token: other });
    expect(claim.status).toBe(404);
    expectEnvelope(claim.body, "no_position");
    expect((await client.call("POST", "/api/trade/claim", { body: { marketSlug: "no-such-market" } })).status).toBe(
      404,
    );
  });

  it("answers 503 while the bundler is down, leaves nothing pending, and trades again once it is back", async () => {
    const alto = stack.children.find((child) => child.name === "alto")!;
    await stopChild(alto);
    const down = await client.call("POST", "/api/trade/buy", {
      body: { marketSlug: market(1).slug, outcome: "Yes", amount: 1 },
    });
    expect(down.status).toBe(503);
    expectEnvelope(down.body, "bundler_unavailable");
    const { rows } = await queryDb(
      `SELECT state FROM api.submission WHERE state <> 'failed' AND created_at > now() - interval '5 seconds' AND request->>'amount' = '1'`,
    );
    expect(rows).toEqual([]);

    const port = Number(new URL(stack.bundlerUrl).port);
    const restarted = await startBundler({
      port,
      rpcUrl: stack.rpcUrl,
      executorKey: stack.keys.bundlerExecutor,
      utilityKey: stack.keys.bundlerUtility,
      blockTimeMs: 0,
      logFile: join(stack.dataDir, "logs", "alto-restarted.log"),
    });
    restartedBundler = restarted.child;
    const up = await client.call("POST", "/api/trade/buy", {
      body: { marketSlug: market(1).slug, outcome: "Yes", amount: 1 },
    });
    expect(up.status).toBe(200);
    expect((await confirmed(up.body.txId)).status).toBe("confirmed");
  });

  it("acts once for a repeated Idempotency-Key and refuses the key for another body", async () => {
    const request = { marketSlug: market(1).slug, outcome: "No", amount: 1.5 };
    const key = { "idempotency-key": `buy-${Date.now()}` };
    const before = Number(await usdcOf());
    const first = await client.call("POST", "/api/trade/buy", { body: request, token, headers: key });
    const repeat = await client.call("POST", "/api/trade/buy", { body: request, token, headers: key });
    expect(first.status).toBe(200);
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual(first.body);
    expect(repeat.headers.get("idempotent-replayed")).toBe("true");
    expect((await confirmed(first.body.txId)).status).toBe("confirmed");
    expect(Number(await usdcOf())).toBeCloseTo(before - 1.5, 6);

    const reused = await client.call("POST", "/api/trade/buy", {
      body: { ...request, amount: 2 },
      token,
      headers: key,
    });
    expect(reused.status).toBe(422);
    expectEnvelope(reused.body, "idempotency_key_reused");
  });

  it("confirms 20 concurrent buys by one user, the first of them deploying a new account", async () => {
    token = await tokenFor("trader-concurrent");
    await client.call("POST", "/api/wallet/get-or-create");
    expect((await client.call("POST", "/api/wallet/faucet")).status).toBe(200);
    const buys = await Promise.all(
      Array.from({ length: 20 }, () =>
        client.call("POST", "/api/trade/buy", {
          body: { marketSlug: market(2).slug, outcome: "Above 3.5%", amount: 1 },
        }),
      ),
    );
    expect(buys.map((b) => (b.status === 200 ? 200 : b.body))).toEqual(Array(20).fill(200));
    const statuses = await Promise.all(buys.map((b) => confirmed(b.body.txId)));
    expect(statuses.filter((s) => s.status !== "confirmed")).toEqual([]);
  });

  it("confirms one buy each by 50 users at once", async () => {
    const tokens = await Promise.all(Array.from({ length: 50 }, (_, i) => tokenFor(`crowd-${i}`)));
    await Promise.all(tokens.map((t) => client.call("POST", "/api/wallet/get-or-create", { token: t })));
    const grants = await Promise.all(tokens.map((t) => client.call("POST", "/api/wallet/faucet", { token: t })));
    expect(grants.map((g) => g.status)).toEqual(Array(50).fill(200));
    const buys = await Promise.all(
      tokens.map((t) =>
        client.call("POST", "/api/trade/buy", {
          body: { marketSlug: market(3).slug, outcome: "Anthropic", amount: 3 },
          token: t,
        }),
      ),
    );
    expect(buys.map((b) => (b.status === 200 ? 200 : b.body))).toEqual(Array(50).fill(200));
    const statuses = await Promise.all(buys.map((b, i) => confirmedFor(b.body.txId, tokens[i]!)));
    expect(statuses.filter((s) => s.status !== "confirmed")).toEqual([]);
  });

  it("settles writes that a crash cut short when the API starts again", async () => {
    token = await tokenFor("trader-1");
    const sent = await client.call("POST", "/api/trade/buy", {
      body: { marketSlug: market(1).slug, outcome: "Yes", amount: 1 },
    });
    expect((await confirmed(sent.body.txId)).status).toBe("confirmed");
    // As if the API had died at three moments: after sending, after naming the operation, before naming it.
    await queryDb(`UPDATE api.submission SET state = 'prepared' WHERE user_op_hash = '${sent.body.txId}'`);
    const neverSent = `0x${"ab".repeat(32)}`;
    await queryDb(`INSERT INTO api.submission (user_id, kind, request, state, user_op_hash, valid_until)
                   VALUES ('trader-1', 'buy', '{}', 'prepared', '${neverSent}', now() + interval '5 minutes'),
                          ('trader-1', 'buy', '{}', 'prepared', NULL, now() + interval '5 minutes')`);

    await stopChild(stack.children.find((child) => child.name === "api")!);
    restartedApi = (await startApi({ ...stack.apiOptions!, logFile: join(stack.dataDir, "logs", "api-restarted.log") }))
      .child;

    const stateOf = async (hash: string) =>
      (await queryDb(`SELECT state, error FROM api.submission WHERE user_op_hash = '${hash}'`)).rows;
    expect(await stateOf(sent.body.txId)).toEqual([{ state: "submitted", error: null }]);
    expect(await stateOf(neverSent)).toEqual([{ state: "failed", error: expect.stringContaining("not sent") }]);
    const cutBeforeNaming = await queryDb(
      `SELECT state FROM api.submission WHERE user_op_hash IS NULL AND request = '{}'::jsonb`,
    );
    expect(cutBeforeNaming.rows).toEqual([{ state: "failed" }]);
    expect((await client.call("GET", `/api/trade/status/${sent.body.txId}`)).body.status).toBe("confirmed");
    expect((await client.call("GET", `/api/trade/status/${neverSent}`)).body.status).toBe("failed");
  });

  it("sponsors through an ERC-7677 paymaster service when PAYMASTER_URL is set", async () => {
    const { contracts, chainId } = stack.deployment;
    const service = await startPaymasterService({
      address: contracts.verifyingPaymaster,
      signerKey: stack.keys.paymasterSigner,
      chainId,
    });
    const api = await startApi({
      ...stack.apiOptions!,
      port: await freePort(),
      logFile: join(stack.dataDir, "logs", "api-erc7677.log"),
      env: { PAYMASTER_URL: service.url, PAYMASTER_SIGNER_KEY: "" },
    });
    try {
      token = await tokenFor("trader-1");
      const { status, body } = await testClient(api.url, token).call("POST", "/api/trade/buy", {
        body: { marketSlug: market(1).slug, outcome: "No", amount: 1 },
      });
      expect(status).toBe(200);
      const { txId } = body as { txId: string };
      expect((await confirmed(txId)).status).toBe("confirmed");
      expect(service.calls).toContain("pm_getPaymasterStubData");
      expect(service.calls).toContain("pm_getPaymasterData");
    } finally {
      await stopChild(api.child);
      await service.close();
    }
  });
});
