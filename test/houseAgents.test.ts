// The house agents on the real stack, started as `npm start` starts them but on a short schedule:
// registered through the admin route on their first start, they trade every active market from their
// vaults through the public API with their reasoning, comment on the positions they open and publish
// analysis posts. Every feed entry is checked against its transaction on chain. Then the API is
// restarted and the bundler stopped for 10 s: the runner skips its decisions with the reason logged,
// does not crash, and trades again once both are back.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Address, getAddress, type Hex, type PublicClient, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MarketAbi } from "../abis";
import { publicClientFor } from "../api/chain/chain";
import { toUsdcUnits } from "../constants";
import { startApi } from "../scripts/stack/api";
import { startBundler } from "../scripts/stack/bundler";
import { type Child, stopChild } from "../scripts/stack/processes";
import { chainDriver } from "./helpers/chain";
import { testClient } from "./helpers/client";
import { expectEnvelope } from "./helpers/http";
import { sleep, until } from "./helpers/sse";
import { startTestStack, type TestStack } from "./helpers/stack";
import { tokenFor } from "./helpers/tokens";

const HOUSE_USERS = ["house-market-maker", "house-momentum", "house-contrarian"];

describe("house agents", () => {
  let stack: TestStack;
  let chain: PublicClient;
  let client: ReturnType<typeof testClient>;
  let admin: string;
  const startedAt = new Date();
  /** Processes this file started in place of the stack's own, stopped with it. */
  const replacements: Child[] = [];

  const get = async (path: string) => {
    const { status, body } = await client.call("GET", path);
    expect(status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const runnerLog = () => readFileSync(stack.agents!.options.logFile, "utf8");
  /** The runner's log lines (pino JSON) from the character `from` on. */
  const logEntries = (from = 0): { msg: string; reason?: string }[] =>
    runnerLog()
      .slice(from)
      .split("\n")
      .flatMap((line) => {
        try {
          return [JSON.parse(line)];
        } catch {
          return [];
        }
      });
  const logged = (from: number, msg: string, reason?: RegExp) =>
    logEntries(from).some((entry) => entry.msg === msg && (!reason || reason.test(entry.reason ?? "")));
  const runnerCounts = async () =>
    ((await (await fetch(`${stack.agents!.metricsUrl}/agents`)).json()) as { agents: any[] }).agents;
  const confirmedTrades = async () => (await runnerCounts()).reduce((sum, a) => sum + a.counts.tradesConfirmed, 0);
  const settled = async () =>
    (await runnerCounts()).every((a) => a.counts.tradesSent === a.counts.tradesConfirmed + a.counts.tradesFailed);
  const runnerAlive = () => {
    const runner = stack.children.find((child) => child.name === "agents")!;
    return runner.process.exitCode === null && runner.process.signalCode === null;
  };

  beforeAll(async () => {
    stack = await startTestStack({
      agents: {
        env: {
          AGENTS_TICK_MS: "2000",
          AGENTS_POST_INTERVAL_MS: "15000",
          AGENTS_PARAMS: JSON.stringify({
            momentum: { windowMs: 120_000, cooldownMs: 20_000 },
            contrarian: { windowMs: 120_000, cooldownMs: 20_000 },
          }),
        },
      },
    });
    chain = publicClientFor(stack.rpcUrl);
    client = testClient(stack.apiUrl!);
    admin = await tokenFor("admin-1", { roles: ["admin"] });
  });
  afterAll(async () => {
    for (const child of replacements) await stopChild(child);
    await stack?.dispose();
  });

  it("registers the house agents on the runner's first start, and says what runs", async () => {
    expect(stack.agents!.running.map((agent) => [agent.strategy, agent.userId])).toEqual([
      ["market-maker", "house-market-maker"],
      ["momentum", "house-momentum"],
      ["contrarian", "house-contrarian"],
    ]);
    const messages = logEntries().map((entry) => entry.msg);
    expect(messages.filter((msg) => msg === "house agent registered")).toHaveLength(3);
    expect(messages.filter((msg) => msg === "agent running")).toHaveLength(3);
  });

  it("answers a repeat of the admin route with the agent's ids (200), and refuses others", async () => {
    const body = { userId: "house-momentum", name: "House Momentum", persona: "p", strategy: "momentum" };
    const repeat = await client.call("POST", "/api/agents/house", { token: admin, body });
    expect(repeat.status, JSON.stringify(repeat.body)).toBe(200);
    const momentum = stack.agents!.running.find((agent) => agent.strategy === "momentum")!;
    expect(repeat.body).toMatchObject({
      agentId: momentum.agentId,
      userId: "house-momentum",
      walletAddress: getAddress(momentum.agentId!),
      house: true,
      registerTxHash: null,
      seedTxHash: null,
      seededUsdc: 0,
    });

    const someone = await tokenFor("someone", { roles: ["agent", "verified"] });
    const forbidden = await client.call("POST", "/api/agents/house", { token: someone, body });
    expect(forbidden.status).toBe(403);
    expectEnvelope(forbidden.body, "forbidden");
    const bad = await client.call("POST", "/api/agents/house", { token: admin, body: { ...body, seedUsdc: -1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.parameter).toBe("seedUsdc");

    // An agent that registered itself cannot be made a house agent.
    const self = await tokenFor("self-made", { roles: ["agent"] });
    await client.call("POST", "/api/wallet/get-or-create", { token: self });
    const sent = await client.call("POST", "/api/agents", {
      token: self,
      body: { name: "Self", persona: "", strategy: "" },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await until(
      async () =>
        (await client.call("GET", `/api/trade/status/${sent.body.txId}`, { token: self })).body.status !== "pending",
      "self registration settled",
    );
    const taken = await client.call("POST", "/api/agents/house", {
      token: admin,
      body: { ...body, userId: "self-made" },
    });
    expect(taken.status, JSON.stringify(taken.body)).toBe(409);
    expectEnvelope(taken.body, "agent_not_house");
  });

  it("trades every active market from the vaults, each feed entry a confirmed trade of that agent's vault", async () => {
    const markets: { slug: string; contractAddress: string }[] = [];
    for (const market of (await get("/api/markets?status=active")).markets)
      markets.push(await get(`/api/markets/${market.slug}`));
    expect(markets.length).toBeGreaterThanOrEqual(4);

    let house: any[] = [];
    let feed: any[] = [];
    await until(
      async () => {
        house = (await get("/api/agents/house")).agents;
        feed = (await get("/api/agents/feed?limit=100")).feed;
        const traded = new Set(feed.map((entry) => entry.marketSlug));
        return feed.length >= 10 && markets.every((market) => traded.has(market.slug));
      },
      "ten feed entries and every active market traded",
      60_000,
    );
    expect(house.filter((agent) => agent.status === "active" && agent.house)).toHaveLength(3);
    expect(house.map((agent) => agent.strategy).sort()).toEqual(["contrarian", "market-maker", "momentum"]);

    const vaults = new Map(house.map((agent) => [agent.id, (agent.vaultAddress as string).toLowerCase()]));
    const addresses = new Map(markets.map((market) => [market.slug, market.contractAddress.toLowerCase()]));
    for (const entry of feed) {
      expect(entry.reasoning.length, JSON.stringify(entry)).toBeGreaterThan(20);
      expect(entry.confidence).toBeGreaterThanOrEqual(0);
      expect(entry.confidence).toBeLessThanOrEqual(1);
      const receipt = await chain.getTransactionReceipt({ hash: entry.txHash as Hex });
      expect(receipt.status).toBe("success");
      const trades = parseEventLogs({ abi: MarketAbi, logs: receipt.logs, eventName: "Trade" }).filter(
        (log) =>
          log.address.toLowerCase() === addresses.get(entry.marketSlug) &&
          log.args.trader.toLowerCase() === vaults.get(entry.agentId),
      );
      expect(trades.length, `${entry.txHash} trades ${entry.marketSlug} from ${entry.agentName}'s vault`).toBe(1);
      expect(trades[0]!.args.isBuy).toBe(entry.action === "buy");
    }
  });

  it("comments with a duel stance on the positions it opens, and publishes an analysis post per agent", async () => {
    const maker = stack.agents!.running.find((agent) => agent.strategy === "market-maker")!;
    const slug = stack.deployment.markets[0]!.slug;
    await until(
      async () =>
        (await get(`/api/comments?target_type=market&target_id=${slug}`)).comments.some(
          (comment: any) => comment.userId === maker.userId,
        ),
      "the market maker's comment",
    );
    const comment = (await get(`/api/comments?target_type=market&target_id=${slug}`)).comments.find(
      (c: any) => c.userId === maker.userId,
    );
    expect(comment).toMatchObject({ isDuel: true, author: { isAgent: true } });
    expect(comment.body).toMatch(new RegExp(`^I opened a position in ${comment.stance}\\. `));

    await until(
      async () => {
        for (const user of HOUSE_USERS) {
          const { posts } = await get(`/api/blog?author=${user}`);
          if (!posts.some((post: any) => post.kind === "analysis" && new Date(post.publishedAt) >= startedAt))
            return false;
        }
        return true;
      },
      "an analysis post of each agent",
      60_000,
    );
    const [latest] = (await get("/api/blog?author=house-market-maker")).posts;
    expect(latest).toMatchObject({ kind: "analysis", tags: ["analysis", "market-maker"] });
    expect(latest.sources.length).toBeGreaterThanOrEqual(4);
    const post = await get(`/api/blog/${latest.id}`);
    expect(post.body).toContain("## Positions");
    expect(post.body).toContain("## Views");
  });

  it("survives an API restart and the bundler down for 10 s, and trades again afterwards", async () => {
    await until(settled, "no trade in flight");
    const beforeRestart = runnerLog().length;

    // The API goes away and comes back on the same port.
    const api = stack.children.find((child) => child.name === "api")!;
    await stopChild(api);
    await sleep(3_000);
    const restarted = await startApi({ ...stack.apiOptions!, logFile: join(stack.dataDir, "logs", "api-2.log") });
    replacements.push(restarted.child);
    await until(async () => logged(beforeRestart, "live stream connected"), "the stream back");
    expect(logged(beforeRestart, "round skipped: markets not read", /^API unreachable: ECONNREFUSED/)).toBe(true);
    expect(logged(beforeRestart, "live stream dropped; reconnecting")).toBe(true);
    expect(runnerAlive()).toBe(true);

    // The bundler goes away for 10 s while a trader pushes a market far from where the agents hold it.
    await until(settled, "no trade in flight");
    const beforeOutage = runnerLog().length;
    const bundler = stack.children.find((child) => child.name === "alto")!;
    await stopChild(bundler);
    const outageStart = Date.now();
    const driver = chainDriver(stack.rpcUrl, stack.deployment);
    const trader = "0x00000000000000000000000000000000000a9e17" as Address;
    const market = stack.deployment.markets[0]!.address;
    await driver.fundTraders([trader], toUsdcUnits(1000), [market]);
    expect((await driver.mineBlock([driver.buy(trader, market, 0, toUsdcUnits(400))]))[0]!.ok).toBe(true);
    await until(
      async () => logged(beforeOutage, "decision skipped", /^503 bundler_unavailable/),
      "a decision skipped while the bundler is down",
    );
    await sleep(Math.max(0, 10_000 - (Date.now() - outageStart)));
    const confirmedBefore = await confirmedTrades();
    const port = Number(new URL(stack.bundlerUrl).port);
    const back = await startBundler({
      port,
      rpcUrl: stack.rpcUrl,
      executorKey: stack.keys.bundlerExecutor,
      utilityKey: stack.keys.bundlerUtility,
      blockTimeMs: 0,
      logFile: join(stack.dataDir, "logs", "alto-2.log"),
    });
    replacements.push(back.child);

    await until(async () => (await confirmedTrades()) > confirmedBefore, "a trade confirmed after the outage", 60_000);
    expect(runnerAlive()).toBe(true);
    const [latest] = (await get(`/api/agents/feed?marketSlug=${stack.deployment.markets[0]!.slug}&limit=1`)).feed;
    expect(Date.parse(latest.timestamp)).toBeGreaterThan(outageStart);
  });
});
