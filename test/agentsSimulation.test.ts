// Does the market maker keep prices near fair value? Thirty random traders push two identical markets
// around with the same sequence of trades, straight on chain, one block per round: once with nobody
// else trading, once with the house market maker answering each round through the public API (its
// runner in this process, one round after each block). Both markets open at 0.50, and the traders buy
// either side with equal odds, so 0.50 stays the fair value; the price's mean distance from it is
// smaller with the market maker.

import { join } from "node:path";
import pino from "pino";
import type { Address, PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MarketAbi } from "../abis";
import { HOUSE_AGENTS } from "../agents/house";
import { type Runner, startRunner } from "../agents/runner";
import { publicClientFor } from "../api/chain/chain";
import { toUsdcUnits } from "../constants";
import { chainDriver, prng } from "./helpers/chain";
import { testClient } from "./helpers/client";
import { sleep, until } from "./helpers/sse";
import { startTestStack, type TestStack } from "./helpers/stack";
import { tokenFor } from "./helpers/tokens";

const FAIR = 0.5;
const ROUNDS = 20;
const TRADERS = 30;
const B_USDC = 200;
const SEED = 20_261_122;

type Trade = { trader: number; outcome: number; usdc: number };

/** The same random flow for both markets: each round, each trader buys 2 to 30 USDC of a side with odds 1/3. */
function randomFlow(): Trade[][] {
  const random = prng(SEED);
  return Array.from({ length: ROUNDS }, () =>
    Array.from({ length: TRADERS }, (_, trader) => trader).flatMap((trader) =>
      random.next() < 1 / 3 ? [{ trader, outcome: random.int(2), usdc: 2 + random.int(29) }] : [],
    ),
  );
}

describe("the market maker in a crowd of random traders", () => {
  let stack: TestStack;
  let chain: PublicClient;
  let client: ReturnType<typeof testClient>;
  let runner: Runner | undefined;
  const markets: Record<"alone" | "made", { slug: string; address: Address }> = {} as never;
  const run = Math.random().toString(36).slice(2, 8);

  const yesPrice = async (market: Address) =>
    Number((await chain.readContract({ address: market, abi: MarketAbi, functionName: "prices" }))[0]!) / 1e18;

  beforeAll(async () => {
    stack = await startTestStack();
    chain = publicClientFor(stack.rpcUrl);
    client = testClient(stack.apiUrl!);
    const admin = await tokenFor("sim-admin", { roles: ["admin"] });
    for (const name of ["alone", "made"] as const) {
      const slug = `sim-${name}-${run}`;
      const draft = await client.call("POST", "/api/markets", {
        token: admin,
        body: {
          slug,
          title: `Simulation (${name})`,
          description: "A coin flip: fair value 0.50.",
          outcomes: ["Yes", "No"],
          closesAt: new Date(Date.now() + 86_400_000).toISOString(),
          b: B_USDC,
        },
      });
      expect(draft.status, JSON.stringify(draft.body)).toBe(201);
      const activated = await client.call("POST", `/api/markets/${slug}/activate`, { token: admin });
      expect(activated.status, JSON.stringify(activated.body)).toBe(200);
      markets[name] = { slug, address: activated.body.contractAddress };
    }
    await until(
      async () => (await client.call("GET", `/api/markets/${markets.made.slug}`)).body.status === "active",
      "the markets indexed",
    );
  });
  afterAll(async () => {
    await runner?.stop();
    await stack?.dispose();
  });

  it("keeps the price nearer its fair value than the crowd alone does", async () => {
    const driver = chainDriver(stack.rpcUrl, stack.deployment);
    const traders = Array.from(
      { length: TRADERS },
      (_, i) => `0x${(0x5100 + i).toString(16).padStart(40, "0")}` as Address,
    );
    await driver.fundTraders(traders, toUsdcUnits(2_000), [markets.alone.address, markets.made.address]);
    const flow = randomFlow();
    const push = async (market: Address, trades: Trade[]) => {
      const results = await driver.mineBlock(
        trades.map((trade) => driver.buy(traders[trade.trader]!, market, trade.outcome, toUsdcUnits(trade.usdc))),
      );
      expect(results.every((result) => result.ok)).toBe(true);
    };

    // The crowd alone.
    const alone: number[] = [];
    for (const trades of flow) {
      await push(markets.alone.address, trades);
      alone.push(await yesPrice(markets.alone.address));
    }

    // The same crowd with the market maker: a house agent of this run, trading only its market.
    const house = HOUSE_AGENTS.find((agent) => agent.key === "market-maker")!;
    const userId = `sim-maker-${run}`;
    const admin = await tokenFor("sim-admin", { roles: ["admin"] });
    const registered = await client.call("POST", "/api/agents/house", {
      token: admin,
      body: { userId, name: "Simulated Market Maker", persona: "", strategy: house.key, seedUsdc: 2_000 },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    await until(
      async () => (await client.call("GET", `/api/agents/${registered.body.agentId}`)).status === 200,
      "the market maker indexed",
    );
    const logger = pino({ level: "info" }, pino.destination(join(stack.dataDir, "logs", "simulation-agents.log")));
    runner = await startRunner({
      apiUrl: stack.apiUrl!,
      agents: [{ ...house, ...house.build(), userId, token: await tokenFor(userId, { roles: ["agent", "verified"] }) }],
      seedUsdc: 0,
      tickMs: 0,
      postIntervalMs: 3_600_000,
      markets: [markets.made.slug],
      stream: false,
      logger,
    });
    const maker = runner.agents[0]!;
    /** Rounds until the market maker has nothing in flight and sends nothing more. */
    const answer = async () => {
      for (let i = 0; i < 20; i++) {
        const sent = runner!.metrics.counts(maker.profile.name).tradesSent;
        await runner!.round();
        if (maker.inFlight === 0 && runner!.metrics.counts(maker.profile.name).tradesSent === sent) return;
        await sleep(200);
      }
      throw new Error("the market maker did not settle in 20 rounds");
    };
    /** The API has indexed the market's price as it is on chain. */
    const indexed = async () => {
      const onChain = await yesPrice(markets.made.address);
      await until(async () => {
        const { body } = await client.call("GET", `/api/markets/${markets.made.slug}`);
        return Math.abs(body.prices.Yes - onChain) < 1e-9;
      }, "the price indexed");
    };

    await answer(); // its opening inventory
    const made: number[] = [];
    for (const trades of flow) {
      await push(markets.made.address, trades);
      await indexed();
      await answer();
      made.push(await yesPrice(markets.made.address));
    }

    const meanDistance = (prices: number[]) => prices.reduce((sum, p) => sum + Math.abs(p - FAIR), 0) / prices.length;
    const without = meanDistance(alone);
    const withMaker = meanDistance(made);
    console.log(
      `mean distance of the price from fair value ${FAIR} over ${ROUNDS} rounds of ${TRADERS} random traders: without the market maker ${without.toFixed(4)}, with it ${withMaker.toFixed(4)}`,
    );
    console.log(`  prices without: ${alone.map((p) => p.toFixed(3)).join(" ")}`);
    console.log(`  prices with:    ${made.map((p) => p.toFixed(3)).join(" ")}`);
    expect(runner.metrics.counts(maker.profile.name).tradesConfirmed).toBeGreaterThan(2);
    expect(withMaker).toBeLessThan(without);
  });
});
