// Agents' writes on the real stack: registering an agent (its vault deployed by the registry),
// bonding into the vault, the agent trading from it with its reasoning kept for the feed, closing it
// to new bonds, and unbonding after the lockup for exactly what the contract quoted. Every figure is
// read back from the chain.

import pg from "pg";
import {
  type Address,
  type BaseError,
  ContractFunctionRevertedError,
  type Hex,
  type PublicClient,
  parseEventLogs,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentRegistryAbi, AgentVaultAbi, MarketAbi, TestUSDCAbi } from "../abis";
import { publicClientFor } from "../api/chain/chain";
import { toUsdcUnits } from "../constants";
import { type ChainDriver, chainDriver } from "./helpers/chain";
import { testClient } from "./helpers/client";
import { expectEnvelope } from "./helpers/http";
import { until } from "./helpers/sse";
import { startTestStack, type TestStack } from "./helpers/stack";
import { tokenFor } from "./helpers/tokens";

/** Short enough that moving the chain's clock past it stays within a sponsorship's validity (300 s). */
const LOCKUP_SECONDS = 60;

describe("agents' writes", () => {
  let stack: TestStack;
  let chain: PublicClient;
  let driver: ChainDriver;
  let db: pg.Client;
  let client: ReturnType<typeof testClient>;
  const tokens: Record<string, string> = {};
  const wallets: Record<string, Address> = {};
  let agentId: string;
  let vault: Address;
  const bondIds: Record<string, bigint> = {};
  const market = (i: number) => stack.deployment.markets[i]!;

  const call = (user: string, method: string, path: string, body?: unknown) =>
    client.call(method, path, { token: tokens[user], body });
  const settled = async (user: string, txId: string) => {
    let status: { status: string; txHash: Hex; error?: string } = { status: "pending", txHash: "0x" };
    await until(async () => {
      status = (await call(user, "GET", `/api/trade/status/${txId}`)).body;
      return status.status !== "pending";
    }, `${txId} settled`);
    return status;
  };
  /** Sends a write and waits for the indexer to confirm it. */
  const confirmedWrite = async (user: string, path: string, body: unknown) => {
    const sent = await call(user, "POST", path, body);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toMatchObject({ status: "pending", txId: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    const status = await settled(user, sent.body.txId);
    expect(status, JSON.stringify(status)).toMatchObject({ status: "confirmed" });
    return { ...sent.body, txHash: status.txHash };
  };
  const usdcOf = (holder: Address) =>
    chain.readContract({
      address: stack.deployment.contracts.usdc,
      abi: TestUSDCAbi,
      functionName: "balanceOf",
      args: [holder],
    });
  const tokensOf = (holder: Address, i: number, outcome: bigint) =>
    chain.readContract({
      address: market(i).address,
      abi: MarketAbi,
      functionName: "balanceOf",
      args: [holder, outcome],
    });
  const vaultBond = async (bondId: bigint) => {
    const [staker, bondedAt, shares] = await chain.readContract({
      address: vault,
      abi: AgentVaultAbi,
      functionName: "bonds",
      args: [bondId],
    });
    return { staker, bondedAt, shares };
  };
  const quoteUnbond = async (bondId: bigint, shares: bigint) => {
    const error = await chain
      .simulateContract({ address: vault, abi: AgentVaultAbi, functionName: "quoteUnbond", args: [bondId, shares] })
      .then(
        () => undefined,
        (error: BaseError) => error.walk((cause) => cause instanceof ContractFunctionRevertedError),
      );
    if (!(error instanceof ContractFunctionRevertedError) || error.data?.errorName !== "UnbondQuote")
      throw new Error(`quoteUnbond did not revert with its quote: ${error}`);
    const [usdcPaid, fee] = error.data.args as readonly [bigint, bigint];
    return { usdcPaid, fee };
  };
  const expectError = (response: { status: number; body: any }, status: number, code: string, parameter?: string) => {
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    expectEnvelope(response.body, code);
    if (parameter) expect(response.body.error.details.parameter).toBe(parameter);
  };

  beforeAll(async () => {
    stack = await startTestStack();
    client = testClient(stack.apiUrl!);
    chain = publicClientFor(stack.rpcUrl);
    driver = chainDriver(stack.rpcUrl, stack.deployment);
    db = new pg.Client(stack.databaseUrl);
    await db.connect();
    for (const user of ["ada", "bo"]) tokens[user] = await tokenFor(user, { roles: ["agent"] });
    for (const user of ["pat", "sid", "uma"]) tokens[user] = await tokenFor(user);
    for (const user of ["ada", "bo", "pat", "sid", "uma"]) {
      wallets[user] = (await call(user, "POST", "/api/wallet/get-or-create")).body.address;
      expect((await call(user, "POST", "/api/wallet/faucet")).status).toBe(200);
    }
  });
  afterAll(async () => {
    await db?.end();
    await stack?.dispose();
  });

  it("registers an agent from its smart account, once, and only for the role agent", async () => {
    expectError(await call("pat", "POST", "/api/agents", { name: "Pat", persona: "", strategy: "" }), 403, "forbidden");
    const valid = { name: "Ada", persona: "p", strategy: "s" };
    for (const [change, parameter] of [
      [{ name: "" }, "name"],
      [{ name: "é".repeat(51) }, "name"],
      [{ persona: "x".repeat(1001) }, "persona"],
      [{ feeBps: 2001 }, "feeBps"],
      [{ lockupSeconds: 365 * 86400 + 1 }, "lockupSeconds"],
      [{ house: true }, "house"],
    ] as const) {
      const body = { ...valid, ...change };
      expectError(await call("ada", "POST", "/api/agents", body), 400, "invalid_parameter", parameter);
    }

    const registered = await confirmedWrite("ada", "/api/agents", {
      name: "Ada",
      persona: "Patient and contrarian",
      strategy: "buys what the crowd sells",
      feeBps: 1000,
      lockupSeconds: LOCKUP_SECONDS,
    });
    agentId = registered.agentId;
    vault = registered.vaultAddress;
    expect(agentId).toBe(wallets.ada!.toLowerCase());
    expect(registered).toMatchObject({ name: "Ada", feeBps: 1000, lockupSeconds: LOCKUP_SECONDS });
    const [onChainVault, house, active] = await chain.readContract({
      address: stack.deployment.contracts.agentRegistry,
      abi: AgentRegistryAbi,
      functionName: "agents",
      args: [wallets.ada!],
    });
    expect([onChainVault, house, active]).toEqual([vault, false, true]);
    const read = { address: vault, abi: AgentVaultAbi } as const;
    expect(await chain.readContract({ ...read, functionName: "manager" })).toBe(wallets.ada);
    expect(await chain.readContract({ ...read, functionName: "feeBps" })).toBe(1000);
    expect(await chain.readContract({ ...read, functionName: "lockupSeconds" })).toBe(LOCKUP_SECONDS);

    const again = await call("ada", "POST", "/api/agents", { name: "Ada again", persona: "", strategy: "" });
    expectError(again, 409, "agent_exists");
  });

  it("bonds USDC from the staker's wallet into the vault, one share per USDC at first", async () => {
    for (const [staker, amount] of [
      ["sid", 100],
      ["uma", 300],
    ] as const) {
      const before = await usdcOf(wallets[staker]!);
      const sent = await confirmedWrite(staker, `/api/agents/${agentId}/bonds`, { amount });
      expect(sent).toMatchObject({ agentId, vaultAddress: vault, amount });
      expect(before - (await usdcOf(wallets[staker]!))).toBe(toUsdcUnits(amount));
      const receipt = await chain.getTransactionReceipt({ hash: sent.txHash });
      const [bonded] = parseEventLogs({ abi: AgentVaultAbi, eventName: "Bonded", logs: receipt.logs }).filter(
        (log) => log.args.staker === wallets[staker],
      );
      bondIds[staker] = bonded!.args.bondId;
      expect(await vaultBond(bondIds[staker]!)).toMatchObject({
        staker: wallets[staker],
        shares: toUsdcUnits(amount),
      });
    }
    expect(await usdcOf(vault)).toBe(toUsdcUnits(400));

    const unknown = `0x${"ab".repeat(20)}`;
    expectError(await call("sid", "POST", `/api/agents/${unknown}/bonds`, { amount: 5 }), 404, "agent_not_found");
    for (const amount of [0.5, 1.0000001, 5_000]) {
      const response = await call("sid", "POST", `/api/agents/${agentId}/bonds`, { amount });
      expectError(response, 400, "invalid_parameter", "amount");
    }
    expectError(
      await call("sid", "POST", "/api/agents/not-an-id/bonds", { amount: 5 }),
      400,
      "invalid_parameter",
      "id",
    );
  });

  it("trades from the vault by default for an agent, keeping its reasoning before sending", async () => {
    const slug = market(1).slug;
    const views = stack.viewsSchema;
    const priceBefore = (await db.query(`SELECT prices FROM "${views}".market WHERE slug = $1`, [slug])).rows[0]
      .prices[0] as number;
    const walletUsdc = await usdcOf(wallets.ada!);

    const bought = await confirmedWrite("ada", "/api/trade/buy", {
      marketSlug: slug,
      outcome: "Yes",
      amount: 50,
      reasoning: "the crowd is too gloomy",
      confidence: 0.7,
    });
    expect(bought).toMatchObject({ account: "vault", amount: 50 });
    expect(await usdcOf(vault)).toBe(toUsdcUnits(350));
    expect(await tokensOf(vault, 1, 0n)).toBe(toUsdcUnits(bought.tokensReceived));
    expect(await usdcOf(wallets.ada!)).toBe(walletUsdc);
    expect(await tokensOf(wallets.ada!, 1, 0n)).toBe(0n);

    const decision = await db.query("SELECT * FROM api.agent_decision WHERE user_op_hash = $1", [bought.txId]);
    expect(decision.rows).toEqual([
      expect.objectContaining({
        user_id: "ada",
        agent: agentId,
        market_slug: slug,
        action: "buy",
        outcome: 0,
        amount: "50000000",
        reasoning: "the crowd is too gloomy",
        confidence: 0.7,
        price_at_decision: priceBefore,
      }),
    ]);
    await until(
      async () =>
        (await db.query(`SELECT trader FROM "${views}".trade WHERE tx_hash = $1`, [bought.txHash])).rows[0]?.trader ===
        vault.toLowerCase(),
      "the vault's buy indexed with the vault as trader",
    );

    const cashBefore = await usdcOf(vault);
    const sold = await confirmedWrite("ada", "/api/trade/sell", { marketSlug: slug, outcome: "Yes", tokenAmount: 10 });
    expect(sold.account).toBe("vault");
    expect(await tokensOf(vault, 1, 0n)).toBe(toUsdcUnits(bought.tokensReceived) - toUsdcUnits(10));
    expect((await usdcOf(vault)) - cashBefore).toBe(toUsdcUnits(sold.usdcReceived));
    const sale = await db.query(
      "SELECT action, reasoning, confidence, amount FROM api.agent_decision WHERE user_op_hash = $1",
      [sold.txId],
    );
    expect(sale.rows).toEqual([{ action: "sell", reasoning: "", confidence: null, amount: "10000000" }]);

    const tooMany = await call("ada", "POST", "/api/trade/sell", {
      marketSlug: slug,
      outcome: "Yes",
      tokenAmount: 500,
    });
    expectError(tooMany, 400, "invalid_parameter", "tokenAmount");
    const tooMuch = await call("ada", "POST", "/api/trade/buy", { marketSlug: slug, outcome: "Yes", amount: 500 });
    expectError(tooMuch, 400, "invalid_parameter", "amount");
  });

  it("trades from the wallet when asked, or for an agent without a vault; refuses vault trades to others", async () => {
    const slug = market(1).slug;
    const fromWallet = await confirmedWrite("ada", "/api/trade/buy", {
      marketSlug: slug,
      outcome: "No",
      amount: 2,
      account: "wallet",
      reasoning: "a hedge of my own",
    });
    expect(fromWallet.account).toBe("wallet");
    expect(await tokensOf(wallets.ada!, 1, 1n)).toBe(toUsdcUnits(fromWallet.tokensReceived));
    expect(await tokensOf(vault, 1, 1n)).toBe(0n);
    const kept = await db.query("SELECT action, reasoning FROM api.agent_decision WHERE user_op_hash = $1", [
      fromWallet.txId,
    ]);
    expect(kept.rows).toEqual([{ action: "buy", reasoning: "a hedge of my own" }]);

    const unregistered = await confirmedWrite("bo", "/api/trade/buy", { marketSlug: slug, outcome: "Yes", amount: 1 });
    expect(unregistered.account).toBe("wallet");
    expect(await tokensOf(wallets.bo!, 1, 0n)).toBe(toUsdcUnits(unregistered.tokensReceived));
    const noVault = await call("bo", "POST", "/api/trade/buy", {
      marketSlug: slug,
      outcome: "Yes",
      amount: 1,
      account: "vault",
    });
    expectError(noVault, 409, "agent_not_registered");

    for (const [field, value] of [
      ["account", "vault"],
      ["reasoning", "why not"],
      ["confidence", 0.5],
    ] as const) {
      const response = await call("pat", "POST", "/api/trade/buy", {
        marketSlug: slug,
        outcome: "Yes",
        amount: 1,
        [field]: value,
      });
      expectError(response, 400, "invalid_parameter", field);
    }
    for (const [change, parameter] of [
      [{ confidence: 1.5 }, "confidence"],
      [{ reasoning: "x".repeat(2001) }, "reasoning"],
      [{ account: "treasury" }, "account"],
    ] as const) {
      const response = await call("ada", "POST", "/api/trade/buy", {
        marketSlug: slug,
        outcome: "Yes",
        amount: 1,
        ...change,
      });
      expectError(response, 400, "invalid_parameter", parameter);
    }
  });

  it("closes the agent to new bonds by its own request only", async () => {
    const path = `/api/agents/${agentId}/status`;
    expectError(await call("sid", "POST", path, { active: false }), 403, "not_agent_manager");
    expectError(
      await call("ada", "POST", `/api/agents/${`0x${"cd".repeat(20)}`}/status`, { active: false }),
      404,
      "agent_not_found",
    );
    expect(await confirmedWrite("ada", path, { active: false })).toMatchObject({ agentId, active: false });
    const isActive = () =>
      chain.readContract({
        address: stack.deployment.contracts.agentRegistry,
        abi: AgentRegistryAbi,
        functionName: "isActive",
        args: [vault],
      });
    expect(await isActive()).toBe(false);
    expectError(await call("sid", "POST", `/api/agents/${agentId}/bonds`, { amount: 5 }), 409, "agent_inactive");
    await confirmedWrite("ada", path, { active: true });
    expect(await isActive()).toBe(true);
  });

  it("unbonds by the staker only, after the lockup, paying exactly the contract's quote", async () => {
    const bondId = bondIds.sid!;
    const unbond = (user: string, id: bigint | string, body: unknown = {}) =>
      call(user, "POST", `/api/agents/bonds/${id}/unbond`, body);
    await until(
      async () =>
        (await db.query(`SELECT 1 FROM "${stack.viewsSchema}".bond WHERE id = $1`, [bondId.toString()])).rowCount === 1,
      "the bond indexed",
    );
    expectError(await unbond("sid", 999_999n), 404, "bond_not_found");
    expectError(await unbond("sid", "0"), 400, "invalid_parameter", "bondId");
    expectError(await unbond("uma", bondId), 403, "not_staker");
    expectError(await unbond("sid", bondId, { shares: 100.000001 }), 400, "invalid_parameter", "shares");

    const { bondedAt } = await vaultBond(bondId);
    const locked = await unbond("sid", bondId);
    expectError(locked, 409, "bond_locked");
    expect(locked.body.error.details.lockupUntil).toBe(
      new Date(Number(bondedAt + BigInt(LOCKUP_SECONDS)) * 1000).toISOString(),
    );

    await driver.rpc("evm_increaseTime", [LOCKUP_SECONDS + 1]);
    await driver.rpc("evm_mine");

    const part = toUsdcUnits(40);
    const quote = await quoteUnbond(bondId, part);
    const stakerBefore = await usdcOf(wallets.sid!);
    const agentBefore = await usdcOf(wallets.ada!);
    const first = await confirmedWrite("sid", `/api/agents/bonds/${bondId}/unbond`, { shares: 40 });
    expect(first).toMatchObject({ bondId: bondId.toString(), agentId, shares: 40 });
    expect(toUsdcUnits(first.quotedUsdc)).toBe(quote.usdcPaid);
    expect(toUsdcUnits(first.quotedFee)).toBe(quote.fee);
    expect((await usdcOf(wallets.sid!)) - stakerBefore).toBe(quote.usdcPaid);
    expect((await usdcOf(wallets.ada!)) - agentBefore).toBe(quote.fee);
    expect((await vaultBond(bondId)).shares).toBe(toUsdcUnits(60));

    const rest = await quoteUnbond(bondId, toUsdcUnits(60));
    const beforeRest = await usdcOf(wallets.sid!);
    expect(await confirmedWrite("sid", `/api/agents/bonds/${bondId}/unbond`, {})).toMatchObject({ shares: 60 });
    expect((await usdcOf(wallets.sid!)) - beforeRest).toBe(rest.usdcPaid);
    expect((await vaultBond(bondId)).shares).toBe(0n);
    expectError(await unbond("sid", bondId), 409, "bond_closed");
  });

  it("claims a resolved market's winnings into the vault; the last staker's unbond then empties it", async () => {
    const slug = market(1).slug;
    const admin = await tokenFor("operator-ann", { roles: ["admin"] });
    expect(
      (await client.call("POST", `/api/markets/${slug}/resolve`, { token: admin, body: { outcome: "Yes" } })).status,
    ).toBe(200);
    await until(
      async () => (await client.call("GET", `/api/markets/${slug}`)).body.status === "resolved",
      "the resolution indexed",
    );
    const winning = await tokensOf(vault, 1, 0n);
    expect(winning).toBeGreaterThan(0n);
    const cashBefore = await usdcOf(vault);
    const claimed = await confirmedWrite("ada", "/api/trade/claim", { marketSlug: slug, reasoning: "resolved Yes" });
    expect(claimed).toMatchObject({ account: "vault", usdcClaimed: Number(winning) / 1e6 });
    expect((await usdcOf(vault)) - cashBefore).toBe(winning);
    expect(await chain.readContract({ address: vault, abi: AgentVaultAbi, functionName: "openMarkets" })).toEqual([]);
    const decision = await db.query(
      "SELECT action, outcome, amount, reasoning, price_at_decision FROM api.agent_decision WHERE user_op_hash = $1",
      [claimed.txId],
    );
    expect(decision.rows).toEqual([
      { action: "claim", outcome: null, amount: null, reasoning: "resolved Yes", price_at_decision: null },
    ]);
    expectError(await call("ada", "POST", "/api/trade/claim", { marketSlug: slug }), 404, "no_position");

    const bondId = bondIds.uma!;
    const { shares } = await vaultBond(bondId);
    const quote = await quoteUnbond(bondId, shares);
    const before = await usdcOf(wallets.uma!);
    await confirmedWrite("uma", `/api/agents/bonds/${bondId}/unbond`, {});
    expect((await usdcOf(wallets.uma!)) - before).toBe(quote.usdcPaid);
    expect(await usdcOf(vault)).toBe(0n);
  });
});
