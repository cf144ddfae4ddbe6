// The agents' read endpoints on the real stack: agents registered and traded straight on the chain
// (the operator registers plain accounts as managers; stakers are plain accounts too) and one through
// the API, then roster, house, feed, bonds, detail and the wallet's positions checked against the
// contracts' own figures at the block the answer says it was read at (`asOf`), to the unit.
import {
  type Address,
  decodeErrorResult,
  encodeFunctionData,
  type Hex,
  keccak256,
  type PublicClient,
  toHex,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentRegistryAbi, AgentVaultAbi, MarketAbi, TestUSDCAbi } from "../abis";
import { publicClientFor } from "../api/chain/chain";
import { chainDriver } from "./helpers/chain";
import { testClient } from "./helpers/client";
import { expectEnvelope } from "./helpers/http";
import { until } from "./helpers/sse";
import { startTestStack, type TestStack } from "./helpers/stack";
import { tokenFor } from "./helpers/tokens";

const RATES = "fed-cuts-rates-march-2027";
const BTC = "btc-above-150k-end-of-2026";
const USDC = 1_000_000n;
const units = (usdc: number) => Math.round(usdc * 1e6);

// Plain accounts, impersonated on anvil: two managers and their stakers, and a trader who moves prices.
const HEDGE = "0x00000000000000000000000000000000000a6e01" as Address;
const CONTRA = "0x00000000000000000000000000000000000a6e02" as Address;
const SAM = "0x000000000000000000000000000000000057a001" as Address;
const TESS = "0x000000000000000000000000000000000057a002" as Address;
const MOVER = "0x000000000000000000000000000000000057a003" as Address;

describe("agents' reads", () => {
  let stack: TestStack;
  let chain: PublicClient;
  let client: ReturnType<typeof testClient>;
  let driver: ReturnType<typeof chainDriver>;
  const vaults: Record<string, Address> = {};
  const bondIds: Record<string, bigint> = {};
  let quant: { token: string; id: string; vault: Address };
  let bettor: { token: string; wallet: Address };
  let lastBlock = 0n;

  const marketOf = (slug: string) => stack.deployment.markets.find((market) => market.slug === slug)!.address;
  /** One transaction from an unlocked account, mined on its own; it must succeed. */
  const send = async (from: Address, to: Address, data: Hex) => {
    const hash = await driver.rpc<Hex>("eth_sendTransaction", [{ from, to, data, gas: "0x2dc6c0" }]);
    const receipt = await chain.waitForTransactionReceipt({ hash });
    expect(receipt.status, `${from} → ${to}`).toBe("success");
    lastBlock = receipt.blockNumber;
    return receipt;
  };
  const operator = () => stack.deployment.roles.operator;
  const registry = () => stack.deployment.contracts.agentRegistry;
  const vaultCall = (manager: Address, data: Hex) => send(manager, vaults[manager]!, data);
  const bondInto = async (staker: Address, vault: Address, amount: bigint) => {
    const receipt = await send(
      staker,
      vault,
      encodeFunctionData({ abi: AgentVaultAbi, functionName: "bond", args: [amount] }),
    );
    const bonded = receipt.logs.find((log) => log.address.toLowerCase() === vault.toLowerCase())!;
    return BigInt(bonded.topics[1]!);
  };
  const confirmed = async (token: string, sent: { status: number; body: any }) => {
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    let status: any = { status: "pending" };
    await until(async () => {
      status = (await client.call("GET", `/api/trade/status/${sent.body.txId}`, { token })).body;
      return status.status !== "pending";
    }, `${sent.body.txId} settled`);
    expect(status.status, JSON.stringify(status)).toBe("confirmed");
    lastBlock = BigInt(status.blockNumber);
  };
  /** A read once the indexer has committed the last block this test mined. */
  const read = async (path: string, token?: string) => {
    let answer = await client.call("GET", path, { token });
    await until(async () => {
      answer = await client.call("GET", path, { token });
      return answer.status !== 200 || answer.body.asOf >= Number(lastBlock);
    }, `${path} indexed at ${lastBlock}`);
    return answer;
  };
  const quoteUnbond = async (vault: Address, bondId: bigint, shares: bigint, blockNumber: bigint) => {
    const data = encodeFunctionData({ abi: AgentVaultAbi, functionName: "quoteUnbond", args: [bondId, shares] });
    const revert = await chain.call({ to: vault, data, blockNumber }).then(
      () => undefined,
      (error: { walk: (fn: (e: any) => boolean) => { data?: Hex } | null }) => error.walk((e) => !!e?.data)?.data,
    );
    const decoded = decodeErrorResult({ abi: AgentVaultAbi, data: revert! });
    expect(decoded.errorName).toBe("UnbondQuote");
    return (decoded.args as readonly [bigint, bigint])[0];
  };
  const vaultView = <T>(vault: Address, functionName: string, args: unknown[], blockNumber: bigint) =>
    chain.readContract({
      address: vault,
      abi: AgentVaultAbi,
      functionName: functionName as never,
      args: args as never,
      blockNumber,
    }) as Promise<T>;

  beforeAll(async () => {
    stack = await startTestStack();
    chain = publicClientFor(stack.rpcUrl);
    client = testClient(stack.apiUrl!);
    driver = chainDriver(stack.rpcUrl, stack.deployment);

    for (const [manager, name, house, feeBps, lockup] of [
      [HEDGE, "Hedge", true, 1000n, 3600n],
      [CONTRA, "Contra", false, 0n, 0n],
    ] as const) {
      vaults[manager] = await chain.readContract({
        address: registry(),
        abi: AgentRegistryAbi,
        functionName: "vaultAddress",
        args: [manager],
      });
      await send(
        operator(),
        registry(),
        encodeFunctionData({
          abi: AgentRegistryAbi,
          functionName: "register",
          args: [manager, name, `${name} persona`, `${name.toLowerCase()} strategy`, house, feeBps, lockup],
        }),
      );
    }
    await driver.fundTraders([HEDGE, CONTRA, SAM, TESS, MOVER], 1_000n * USDC, [
      ...Object.values(vaults),
      marketOf(RATES),
      marketOf(BTC),
    ]);

    // Hedge: two stakers, two markets, a sale; a price mover; then BTC resolves No and Hedge claims.
    bondIds.sam = await bondInto(SAM, vaults[HEDGE]!, 100n * USDC);
    bondIds.tess = await bondInto(TESS, vaults[HEDGE]!, 300n * USDC);
    const vaultBuy = (slug: string, outcome: number, amount: bigint) =>
      encodeFunctionData({
        abi: AgentVaultAbi,
        functionName: "buy",
        args: [keccak256(toHex(slug)), BigInt(outcome), amount, 0n],
      });
    await vaultCall(HEDGE, vaultBuy(RATES, 0, 120n * USDC));
    await vaultCall(HEDGE, vaultBuy(BTC, 1, 80n * USDC));
    await vaultCall(
      HEDGE,
      encodeFunctionData({
        abi: AgentVaultAbi,
        functionName: "sell",
        args: [keccak256(toHex(RATES)), 0n, 50n * USDC, 0n],
      }),
    );
    await send(MOVER, marketOf(RATES), driver.buy(MOVER, marketOf(RATES), 1, 30n * USDC).data);

    // Contra: bonded, then switched off by its manager.
    bondIds.contra = await bondInto(SAM, vaults[CONTRA]!, 50n * USDC);
    await send(
      CONTRA,
      registry(),
      encodeFunctionData({ abi: AgentRegistryAbi, functionName: "setActive", args: [CONTRA, false] }),
    );

    // Quant registers through the API and buys BTC Yes with its reasoning, from a vault Tess bonds into.
    const quantToken = await tokenFor("quant", { roles: ["agent"] });
    await client.call("POST", "/api/wallet/get-or-create", { token: quantToken });
    const registered = await client.call("POST", "/api/agents", {
      token: quantToken,
      body: { name: "Quant", persona: "Patient", strategy: "momentum", feeBps: 500, lockupSeconds: 0 },
    });
    await confirmed(quantToken, registered);
    quant = { token: quantToken, id: registered.body.agentId, vault: registered.body.vaultAddress };
    await send(
      TESS,
      stack.deployment.contracts.usdc,
      encodeFunctionData({ abi: TestUSDCAbi, functionName: "approve", args: [quant.vault, 100n * USDC] }),
    );
    bondIds.quant = await bondInto(TESS, quant.vault, 40n * USDC);
    await confirmed(
      quant.token,
      await client.call("POST", "/api/trade/buy", {
        token: quant.token,
        body: { marketSlug: BTC, outcome: "Yes", amount: 10, reasoning: "momentum says up", confidence: 0.8 },
      }),
    );

    // A person who trades and bonds through the API, for the wallet's positions.
    const bettorToken = await tokenFor("bettor");
    const wallet = (await client.call("POST", "/api/wallet/get-or-create", { token: bettorToken })).body.address;
    bettor = { token: bettorToken, wallet };
    expect((await client.call("POST", "/api/wallet/faucet", { token: bettorToken })).status).toBe(200);
    await confirmed(
      bettorToken,
      await client.call("POST", "/api/trade/buy", {
        token: bettorToken,
        body: { marketSlug: RATES, outcome: "No", amount: 20 },
      }),
    );
    await confirmed(
      bettorToken,
      await client.call("POST", `/api/agents/${HEDGE.toLowerCase()}/bonds`, {
        token: bettorToken,
        body: { amount: 25 },
      }),
    );

    const btc = marketOf(BTC);
    await send(operator(), btc, driver.lifecycle(btc, "close").data);
    await send(operator(), btc, driver.lifecycle(btc, { resolve: 1 }).data);
    await vaultCall(
      HEDGE,
      encodeFunctionData({ abi: AgentVaultAbi, functionName: "claim", args: [keccak256(toHex(BTC))] }),
    );
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  it("lists the roster newest first with the spec's fields, stats and the indexed block", async () => {
    const { status, body } = await read("/api/agents/roster");
    expect(status).toBe(200);
    expect(body).toMatchObject({ total: 3, limit: 50, offset: 0 });
    expect(body.asOf).toBeGreaterThanOrEqual(Number(lastBlock));
    expect(body.agents.map((agent: any) => agent.name)).toEqual(["Quant", "Contra", "Hedge"]);
    const hedge = body.agents.find((agent: any) => agent.name === "Hedge");
    expect(hedge).toEqual({
      id: HEDGE.toLowerCase(),
      name: "Hedge",
      persona: "Hedge persona",
      strategy: "hedge strategy",
      status: "active",
      walletAddress: "0x0000…6e01",
      stats: {
        totalTrades: 3,
        winRate: 1,
        pnl: expect.any(Number),
        avgPosition: 100,
        volume: expect.any(Number),
        brier: null,
      },
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      vaultAddress: vaults[HEDGE],
      house: true,
      feeBps: 1000,
      lockupSeconds: 3600,
      netAssetValue: expect.any(Number),
    });
    expect(body.agents.find((agent: any) => agent.name === "Contra").status).toBe("inactive");
  });

  it("filters the roster by status and pages it", async () => {
    const inactive = (await read("/api/agents/roster?status=inactive")).body;
    expect(inactive.agents.map((agent: any) => agent.name)).toEqual(["Contra"]);
    expect(inactive.total).toBe(1);
    const active = (await read("/api/agents/roster?status=active&limit=1&offset=1")).body;
    expect(active).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(active.agents.map((agent: any) => agent.name)).toEqual(["Hedge"]);
  });

  it.each([
    ["/api/agents/roster?limit=201", "limit"],
    ["/api/agents/roster?limit=0", "limit"],
    ["/api/agents/roster?offset=-1", "offset"],
    ["/api/agents/roster?status=sleeping", "status"],
    ["/api/agents/feed?limit=101", "limit"],
    ["/api/agents/feed?agentId=quant", "agentId"],
    ["/api/agents/feed?marketSlug=Not%20A%20Slug", "marketSlug"],
    ["/api/agents/bonds?limit=201", "limit"],
    ["/api/agents/bonds?agentId=0x123", "agentId"],
    ["/api/agents/0xnot-an-address", "id"],
  ])("answers 400 naming the parameter: %s", async (path, parameter) => {
    const { status, body } = await client.call("GET", path);
    expect(status).toBe(400);
    expectEnvelope(body, "invalid_parameter");
    expect(body.error.details.parameter).toBe(parameter);
  });

  it("lists the house agents without createdAt", async () => {
    const { body } = await read("/api/agents/house");
    expect(body.agents.map((agent: any) => agent.name)).toEqual(["Hedge"]);
    expect(body.agents[0]).not.toHaveProperty("createdAt");
    expect(body.agents[0]).toMatchObject({ id: HEDGE.toLowerCase(), house: true, stats: { totalTrades: 3 } });
  });

  it("values the vault and its stats as the contract does at the indexed block", async () => {
    const { body } = await read(`/api/agents/${HEDGE}`);
    const asOf = BigInt(body.asOf);
    const nav = await vaultView<bigint>(vaults[HEDGE]!, "netAssetValue", [], asOf);
    expect(units(body.netAssetValue)).toBe(Number(nav));
    const cash = await chain.readContract({
      address: stack.deployment.contracts.usdc,
      abi: TestUSDCAbi,
      functionName: "balanceOf",
      args: [vaults[HEDGE]!],
      blockNumber: asOf,
    });
    expect(units(body.cash)).toBe(Number(cash));
    // No unbond yet: the vault's profit is its net asset value less what was bonded: 100 + 300, and
    // what the bond of at most 25, made after the vault traded, spent buying into it.
    expect(body.bonded).toBeGreaterThan(424.99);
    expect(body.bonded).toBeLessThanOrEqual(425);
    expect(units(body.stats.pnl)).toBe(Number(nav) - units(body.bonded));
    expect(body).toMatchObject({ unbonded: 0, feesPaid: 0, totalShares: expect.any(Number) });
    // BTC was claimed: only the RATES Yes tokens are still open.
    expect(body.openPositions).toEqual([
      { marketSlug: RATES, outcome: "Yes", tokens: expect.any(Number), value: expect.any(Number) },
    ]);
    const held = await chain.readContract({
      address: marketOf(RATES),
      abi: MarketAbi,
      functionName: "balanceOf",
      args: [vaults[HEDGE]!, 0n],
      blockNumber: asOf,
    });
    expect(units(body.openPositions[0].tokens)).toBe(Number(held));
    expect(units(body.openPositions[0].value)).toBe(Number(nav - cash));
  });

  it("answers 404 agent_not_found for an id no agent has", async () => {
    const { status, body } = await client.call("GET", `/api/agents/0x${"ab".repeat(20)}`);
    expect(status).toBe(404);
    expectEnvelope(body, "agent_not_found");
  });

  it("scores the API agent's confidence once its market resolved, and counts its loss", async () => {
    const { body } = await read(`/api/agents/${quant.id}`);
    // 0.8 on Yes; No won.
    expect(body.stats.brier).toBeCloseTo(0.64, 12);
    expect(body.stats).toMatchObject({ totalTrades: 1, winRate: 0, avgPosition: 10, volume: 10 });
    expect(body.stats.pnl).toBeCloseTo(-10, 6);
  });

  it("feeds each trade and claim of the agents' vaults newest first, with the reasoning sent", async () => {
    const { body } = await read(`/api/agents/feed?agentId=${HEDGE}`);
    expect(body.total).toBe(4);
    expect(body.feed.map((entry: any) => [entry.action, entry.marketSlug, entry.outcome])).toEqual([
      ["claim", BTC, ""],
      ["sell", RATES, "Yes"],
      ["buy", BTC, "No"],
      ["buy", RATES, "Yes"],
    ]);
    const [claim, sell, , firstBuy] = body.feed;
    expect(firstBuy).toMatchObject({
      agentId: HEDGE.toLowerCase(),
      agentName: "Hedge",
      amount: 120,
      reasoning: "",
      confidence: null,
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      timestamp: expect.stringMatching(/^\d{4}-/),
    });
    expect(claim.amount).toBeCloseTo(claim.tokens, 6);
    const received = await chain.getTransactionReceipt({ hash: sell.txHash });
    expect(received.status).toBe("success");

    const quantFeed = (await read(`/api/agents/feed?agentId=${quant.id.toUpperCase().replace("0X", "0x")}`)).body;
    expect(quantFeed.feed).toEqual([
      expect.objectContaining({
        action: "buy",
        marketSlug: BTC,
        outcome: "Yes",
        amount: 10,
        reasoning: "momentum says up",
        confidence: 0.8,
        priceAtDecision: expect.any(Number),
      }),
    ]);

    const btcFeed = (await read(`/api/agents/feed?marketSlug=${BTC}&limit=2`)).body;
    expect(btcFeed.total).toBe(3);
    expect(btcFeed.feed.map((entry: any) => entry.agentName)).toEqual(["Hedge", "Quant"]);
    expect((await read("/api/agents/feed")).body.total).toBe(5);
  });

  it("values each active bond as the contract's bondValue and quoteUnbond at the indexed block, to the unit", async () => {
    const { body } = await read(`/api/agents/bonds?agentId=${HEDGE}`);
    expect(body).toMatchObject({ total: 3, limit: 50, offset: 0 });
    const asOf = BigInt(body.asOf);
    const totalShares = await vaultView<bigint>(vaults[HEDGE]!, "totalShares", [], asOf);
    let fees = 0n;
    for (const entry of body.bonds) {
      const bondId = BigInt(entry.bondId);
      const [value, fee] = await vaultView<readonly [bigint, bigint]>(vaults[HEDGE]!, "bondValue", [bondId], asOf);
      fees += fee;
      const [staker, bondedAt, shares, principal] = await vaultView<readonly [Address, bigint, bigint, bigint]>(
        vaults[HEDGE]!,
        "bonds",
        [bondId],
        asOf,
      );
      expect(units(entry.currentValue), entry.bondId).toBe(Number(value));
      expect(units(entry.liquidationValue), entry.bondId).toBe(
        Number(await quoteUnbond(vaults[HEDGE]!, bondId, shares, asOf)),
      );
      expect(units(entry.amountStaked)).toBe(Number(principal));
      expect(units(entry.unrealizedPnl)).toBe(Number(value - principal));
      expect(entry.sharePercent).toBeCloseTo(Number(shares) / Number(totalShares), 12);
      expect(entry.stakerAddress).toBe(staker);
      expect(entry.staker).toBe(`${staker.slice(0, 6)}…${staker.slice(-4)}`.toLowerCase());
      expect(entry).toMatchObject({ agentId: HEDGE.toLowerCase(), agentName: "Hedge" });
      expect(Date.parse(entry.lockupUntil) - Date.parse(entry.bondedAt)).toBe(3_600_000);
      expect(Date.parse(entry.bondedAt)).toBe(Number(bondedAt) * 1000);
    }
    // The first stakers are in profit, so the fee branch of the valuation was taken.
    expect(fees).toBeGreaterThan(0n);
    const tess = body.bonds.find((entry: any) => entry.bondId === bondIds.tess!.toString());
    expect(tess.amountStaked).toBe(300);
    const paged = (await read(`/api/agents/bonds?agentId=${HEDGE}&limit=1&offset=1`)).body;
    expect(paged.bonds.map((entry: any) => entry.bondId)).toEqual([body.bonds[1].bondId]);
  });

  it("lists only bonds with shares left", async () => {
    const before = (await read("/api/agents/bonds")).body;
    expect(before.total).toBe(5);
    const shares = await vaultView<readonly [Address, bigint, bigint]>(
      vaults[CONTRA]!,
      "bonds",
      [bondIds.contra!],
      await chain.getBlockNumber(),
    );
    await send(
      SAM,
      vaults[CONTRA]!,
      encodeFunctionData({ abi: AgentVaultAbi, functionName: "unbond", args: [bondIds.contra!, shares[2]] }),
    );
    const after = (await read("/api/agents/bonds")).body;
    expect(after.total).toBe(4);
    expect(after.bonds.map((entry: any) => entry.bondId)).not.toContain(bondIds.contra!.toString());
  });

  it("shows a wallet its positions with cost, value and profit and loss, and its bonds", async () => {
    const { status, body } = await read("/api/wallet/positions", bettor.token);
    expect(status).toBe(200);
    expect(body.address).toBe(bettor.wallet);
    expect(body.positions).toEqual([
      {
        marketSlug: RATES,
        outcome: "No",
        tokens: expect.any(Number),
        costBasis: 20,
        value: expect.any(Number),
        unrealizedPnl: expect.any(Number),
        realizedPnl: 0,
      },
    ]);
    const [position] = body.positions;
    expect(position.unrealizedPnl).toBeCloseTo(position.value - 20, 6);
    expect(position.value).toBeGreaterThan(0);
    expect(body.bonds).toHaveLength(1);
    expect(body.bonds[0]).toMatchObject({
      agentId: HEDGE.toLowerCase(),
      amountStaked: expect.closeTo(25, 3),
      stakerAddress: bettor.wallet,
    });
    const [value] = await vaultView<readonly [bigint, bigint]>(
      vaults[HEDGE]!,
      "bondValue",
      [BigInt(body.bonds[0].bondId)],
      BigInt(body.asOf),
    );
    expect(units(body.bonds[0].currentValue)).toBe(Number(value));

    expect((await client.call("GET", "/api/wallet/positions")).status).toBe(401);
    const stranger = await client.call("GET", "/api/wallet/positions", { token: await tokenFor("no-wallet-yet") });
    expect(stranger.status).toBe(404);
    expectEnvelope(stranger.body, "wallet_not_found");
  });
});
