// Authentication and wallets against the real stack: JWT rejection cases, one smart account per
// user even under concurrent calls, balances from the chain, and the rate-limited faucet.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicClientFor } from "../api/chain/chain";
import { startApi } from "../scripts/stack/api";
import { freePort } from "../scripts/stack/ports";
import { stopChild } from "../scripts/stack/processes";
import { testClient } from "./helpers/client";
import { expectEnvelope } from "./helpers/http";
import { startTestStack, type TestStack } from "./helpers/stack";
import { tokenFor, unsignedToken } from "./helpers/tokens";

describe("authentication and wallets", () => {
  let stack: TestStack;
  let client: ReturnType<typeof testClient>;

  beforeAll(async () => {
    stack = await startTestStack();
    client = testClient(stack.apiUrl!);
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  describe("rejects every bad token with 401", () => {
    const cases: [string, () => Promise<string | undefined>][] = [
      ["missing", async () => undefined],
      ["expired", () => tokenFor("mallory", {}, { expiresAt: Math.floor(Date.now() / 1000) - 60 })],
      ["wrong issuer", () => tokenFor("mallory", {}, { issuer: "https://elsewhere.test" })],
      ["wrong audience", () => tokenFor("mallory", {}, { audience: "another-api" })],
      ["alg none", async () => unsignedToken("mallory")],
      ["bad signature", () => tokenFor("mallory", {}, { secret: "a-different-secret-of-enough-length-000" })],
      ["garbage", async () => "not.a.jwt"],
    ];
    it.each(cases)("%s", async (_, makeToken) => {
      for (const [method, path] of [
        ["POST", "/api/wallet/get-or-create"],
        ["GET", "/api/wallet/balance"],
      ] as const) {
        const { status, body } = await client.call(method, path, { token: await makeToken() });
        expect(status, `${method} ${path}`).toBe(401);
        expectEnvelope(body, "unauthorized");
      }
    });
  });

  it("creates one smart account per user, also under concurrent calls", async () => {
    const token = await tokenFor("alice");
    const results = await Promise.all(
      Array.from({ length: 8 }, () => client.call("POST", "/api/wallet/get-or-create", { token })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.body.isNew)).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.address)).size).toBe(1);
    const wallet = results[0]!.body;
    expect(wallet).toEqual({
      walletId: expect.any(String),
      address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      chainId: 2010111,
      type: "SCA",
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      isNew: expect.any(Boolean),
    });
    const again = await client.call("POST", "/api/wallet/get-or-create", { token });
    expect(again.body).toMatchObject({ walletId: wallet.walletId, address: wallet.address, isNew: false });

    const bob = await client.call("POST", "/api/wallet/get-or-create", { token: await tokenFor("bob") });
    expect(bob.body.isNew).toBe(true);
    expect(bob.body.address).not.toBe(wallet.address);
    // Counterfactual: nothing is deployed until the first user operation.
    expect(await publicClientFor(stack.rpcUrl).getCode({ address: wallet.address })).toBeUndefined();
  });

  it("answers 404 for the balance of a user without a wallet", async () => {
    const { status, body } = await client.call("GET", "/api/wallet/balance", { token: await tokenFor("nobody") });
    expect(status).toBe(404);
    expectEnvelope(body, "wallet_not_found");
  });

  it("funds a wallet from the faucet once per interval and reports the balance from the chain", async () => {
    const token = await tokenFor("carol");
    await client.call("POST", "/api/wallet/get-or-create", { token });
    const empty = await client.call("GET", "/api/wallet/balance", { token });
    expect(empty.status).toBe(200);
    expect(empty.body.balances).toEqual([
      { token: "USDC", amount: "0", contractAddress: stack.deployment.contracts.usdc, decimals: 6 },
    ]);

    const grant = await client.call("POST", "/api/wallet/faucet", { token });
    expect(grant.status).toBe(200);
    expect(grant.body).toMatchObject({ amount: "1000", txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect((await client.call("GET", "/api/wallet/balance", { token })).body.balances[0].amount).toBe("1000");

    const again = await client.call("POST", "/api/wallet/faucet", { token });
    expect(again.status).toBe(429);
    expectEnvelope(again.body, "rate_limited");
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await client.call("GET", "/api/wallet/balance", { token })).body.balances[0].amount).toBe("1000");
  });

  it("answers 500 wallet_provisioning_failed when the chain cannot be asked", async () => {
    const api = await startApi({
      ...stack.apiOptions!,
      port: await freePort(),
      logFile: join(stack.dataDir, "logs", "api-no-chain.log"),
      env: { RPC_URL: "http://127.0.0.1:9" },
    });
    try {
      const { status, body } = await testClient(api.url).call("POST", "/api/wallet/get-or-create", {
        token: await tokenFor("dave"),
      });
      expect(status).toBe(500);
      expectEnvelope(body, "wallet_provisioning_failed");
    } finally {
      await stopChild(api.child);
    }
    // Nothing was recorded: a later call, with the chain reachable, creates the wallet.
    const { body } = await client.call("POST", "/api/wallet/get-or-create", { token: await tokenFor("dave") });
    expect(body.isNew).toBe(true);
  });
});
