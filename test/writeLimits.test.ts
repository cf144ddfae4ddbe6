// Write limits per user hold across API processes: two APIs on one database count the same posts,
// trades and wallet openings.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi } from "../scripts/stack/api";
import { freePort } from "../scripts/stack/ports";
import { type Child, stopChild } from "../scripts/stack/processes";
import { testClient } from "./helpers/client";
import { expectEnvelope } from "./helpers/http";
import { startTestStack, type TestStack } from "./helpers/stack";
import { tokenFor } from "./helpers/tokens";

const LIMIT = 3;

describe("write limits", () => {
  let stack: TestStack;
  let second: { child: Child; url: string };
  let apis: ReturnType<typeof testClient>[];
  const run = Math.random().toString(36).slice(2, 8);
  const post = (api: ReturnType<typeof testClient>, token: string, title = "A post") =>
    api.call("POST", "/api/blog", { token, body: { title, body: "Some words." } });
  const verified = (name: string) => tokenFor(`${name}${run}`, { email_verified: true });

  beforeAll(async () => {
    stack = await startTestStack({
      apiEnv: {
        WRITE_LIMIT_POSTS: `${LIMIT}/1h`,
        WRITE_LIMIT_TRADES: `${LIMIT}/1h`,
        WRITE_LIMIT_ACCOUNT: `${LIMIT}/1h`,
      },
    });
    second = await startApi({
      ...stack.apiOptions!,
      port: await freePort(),
      logFile: join(stack.dataDir, "logs", "api-second.log"),
    });
    apis = [testClient(stack.apiUrl!), testClient(second.url)];
  });
  afterAll(async () => {
    if (second) await stopChild(second.child);
    await stack?.dispose();
  });

  it("lets a user publish the limit's number of posts through either process, then answers 429 with Retry-After on whichever gets the next", async () => {
    const token = await verified("ada");
    for (let i = 0; i < LIMIT; i++) {
      const { status, headers } = await post(apis[i % 2]!, token);
      expect(status).toBe(201);
      expect(headers.get("ratelimit-policy")).toBe(`"posts";q=${LIMIT};w=3600`);
      expect(headers.get("ratelimit")).toMatch(new RegExp(`^"posts";r=${LIMIT - 1 - i};t=\\d+$`));
    }
    for (const api of apis) {
      const { status, headers, body } = await post(api, token);
      expect(status).toBe(429);
      expectEnvelope(body, "rate_limited");
      expect(body.error.details).toMatchObject({ limit: "posts", max: LIMIT, windowSeconds: 3600 });
      const retryAfter = Number(headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(3500);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(headers.get("ratelimit")).toMatch(/^"posts";r=0;t=\d+$/);
    }
  });

  it("counts each user apart", async () => {
    const { status } = await post(apis[1]!, await verified("grace"));
    expect(status).toBe(201);
  });

  it("holds under concurrent posts spread over both processes", async () => {
    const token = await verified("burst");
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => post(apis[i % 2]!, token)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(LIMIT).fill(201), ...Array(8 - LIMIT).fill(429)]);
  });

  it("does not count a post refused as invalid", async () => {
    const token = await verified("typo");
    const refused = await post(apis[0]!, token, "t".repeat(201));
    expect(refused.status).toBe(400);
    for (let i = 0; i < LIMIT; i++) expect((await post(apis[i % 2]!, token)).status).toBe(201);
    expect((await post(apis[1]!, token)).status).toBe(429);
  });

  it("limits trades per user across both processes, and a refused trade costs nothing", async () => {
    const token = await verified("trader");
    expect((await apis[0]!.call("POST", "/api/wallet/get-or-create", { token })).status).toBe(200);
    expect((await apis[1]!.call("POST", "/api/wallet/faucet", { token })).status).toBe(200);
    const marketSlug = stack.deployment.markets[0]!.slug;
    const buy = (api: ReturnType<typeof testClient>, amount = 1) =>
      api.call("POST", "/api/trade/buy", { token, body: { marketSlug, outcome: "Yes", amount } });
    expect((await buy(apis[0]!, -1)).status).toBe(400);
    for (let i = 0; i < LIMIT; i++) {
      const { status, headers } = await buy(apis[i % 2]!);
      expect(status).toBe(200);
      expect(headers.get("ratelimit-policy")).toBe(`"trades";q=${LIMIT};w=3600`);
    }
    for (const api of apis) {
      const { status, headers, body } = await buy(api);
      expect(status).toBe(429);
      expectEnvelope(body, "rate_limited");
      expect(body.error.details).toMatchObject({ limit: "trades", max: LIMIT });
      expect(Number(headers.get("retry-after"))).toBeGreaterThan(0);
    }
  });

  it("limits wallet openings and profile changes per user under one count", async () => {
    const token = await verified("account");
    const statuses = [
      (await apis[0]!.call("POST", "/api/wallet/get-or-create", { token })).status,
      (await apis[1]!.call("PUT", "/api/profile", { token, body: { displayName: "Account" } })).status,
      (await apis[0]!.call("POST", "/api/wallet/get-or-create", { token })).status,
      (await apis[1]!.call("POST", "/api/wallet/get-or-create", { token })).status,
    ];
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
