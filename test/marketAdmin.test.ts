// The market lifecycle through the API: drafts by an admin, activation by any user (the operator
// deploys through the factory), resolution and voiding by an admin; the spec's 401/404/409 rows.

import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicClientFor } from "../api/chain/chain";
import { testClient } from "./helpers/client";
import { expectEnvelope } from "./helpers/http";
import { startTestStack, type TestStack } from "./helpers/stack";
import { tokenFor } from "./helpers/tokens";

describe("market lifecycle", () => {
  let stack: TestStack;
  let admin: string;
  let user: string;
  let client: ReturnType<typeof testClient>;
  const untilStatus = async (slug: string, status: string) => {
    for (let i = 0; i < 100; i++) {
      const { body } = await client.call("GET", `/api/markets/${slug}`);
      if (body.status === status) return body;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`${slug} never became ${status}`);
  };
  const draft = (slug: string) => ({
    slug,
    title: `Will ${slug} happen?`,
    description: "Resolves Yes if it happens by the closing time.",
    outcomes: ["Yes", "No", "Unclear"],
    closesAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    b: 500,
    feeBps: 25,
  });

  beforeAll(async () => {
    stack = await startTestStack();
    client = testClient(stack.apiUrl!);
    admin = await tokenFor("operator-ann", { roles: ["admin"] });
    user = await tokenFor("user-bo");
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  it("lets only admins create drafts, validates them, and lists them as pending", async () => {
    expect((await client.call("POST", "/api/markets", { body: draft("rain-in-lisbon") })).status).toBe(401);
    const forbidden = await client.call("POST", "/api/markets", { body: draft("rain-in-lisbon"), token: user });
    expect(forbidden.status).toBe(403);
    expectEnvelope(forbidden.body, "forbidden");
    const bad = await client.call("POST", "/api/markets", {
      body: { ...draft("rain-in-lisbon"), outcomes: ["Yes", "Yes"] },
      token: admin,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.parameter).toBe("outcomes");

    await client.call("GET", "/api/markets?status=pending");
    const created = await client.call("POST", "/api/markets", { body: draft("rain-in-lisbon"), token: admin });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      slug: "rain-in-lisbon",
      status: "pending",
      contractAddress: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
    });
    const pending = await client.call("GET", "/api/markets?status=pending");
    expect(pending.body.markets.map((m: any) => m.slug)).toContain("rain-in-lisbon");
    expect((await client.call("POST", "/api/markets", { body: draft("rain-in-lisbon"), token: admin })).status).toBe(
      409,
    );
    expect(
      (await client.call("POST", "/api/markets", { body: draft(stack.deployment.markets[0]!.slug), token: admin }))
        .status,
    ).toBe(409);
  });

  it("activates a draft for any authenticated user, once", async () => {
    const slug = "rain-in-lisbon";
    expect((await client.call("POST", `/api/markets/${slug}/activate`)).status).toBe(401);
    const missing = await client.call("POST", "/api/markets/no-such-draft/activate", { token: user });
    expect(missing.status).toBe(404);
    expectEnvelope(missing.body, "not_found");

    const predicted = (await client.call("GET", `/api/markets/${slug}`)).body.contractAddress;
    const activated = await client.call("POST", `/api/markets/${slug}/activate`, { token: user });
    expect(activated.status).toBe(200);
    expect(activated.body).toEqual({
      slug,
      status: "active",
      contractAddress: getAddress(predicted),
      chainId: 2010111,
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(await publicClientFor(stack.rpcUrl).getCode({ address: activated.body.contractAddress })).toMatch(
      /^0x[0-9a-f]+$/,
    );

    const market = await untilStatus(slug, "active");
    expect(market).toMatchObject({ outcomes: ["Yes", "No", "Unclear"], liquidity: expect.any(Number) });
    // The house funds b·ln n (rounded up to the unit): the draft's b of 500, not the default.
    expect(market.liquidity).toBeCloseTo(500 * Math.log(3), 4);
    const again = await client.call("POST", `/api/markets/${slug}/activate`, { token: user });
    expect(again.status).toBe(409);
    expectEnvelope(again.body, "already_active");
  });

  it("resolves and voids markets for admins only", async () => {
    const slug = "rain-in-lisbon";
    expect(
      (await client.call("POST", `/api/markets/${slug}/resolve`, { body: { outcome: "Yes" }, token: user })).status,
    ).toBe(403);
    const wrong = await client.call("POST", `/api/markets/${slug}/resolve`, {
      body: { outcome: "Maybe" },
      token: admin,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details.parameter).toBe("outcome");

    const resolved = await client.call("POST", `/api/markets/${slug}/resolve`, {
      body: { outcome: "No" },
      token: admin,
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ slug, status: "resolved", resolvedOutcome: "No" });
    expect(await untilStatus(slug, "resolved")).toMatchObject({ resolvedOutcome: "No" });
    expect(
      (await client.call("POST", `/api/markets/${slug}/resolve`, { body: { outcome: "No" }, token: admin })).status,
    ).toBe(409);

    const other = stack.deployment.markets[1]!.slug;
    const voided = await client.call("POST", `/api/markets/${other}/void`, { token: admin });
    expect(voided.status).toBe(200);
    expect(await untilStatus(other, "voided")).toMatchObject({ status: "voided" });
    expect((await client.call("POST", "/api/markets/no-such-market/void", { token: admin })).status).toBe(404);
  });
});
