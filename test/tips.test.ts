// Tips in USDC: one sponsored user operation from the tipper's smart account to the author's,
// listed only once the indexer has the transfer in a successful user operation; a tip that
// reverts on chain ends `failed` and is never listed.

import pg from "pg";
import { type Address, encodeFunctionData, type Hex, type PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestUSDCAbi } from "../abis";
import { publicClientFor } from "../api/chain/chain";
import { toUsdcUnits } from "../constants";
import { type ChainDriver, chainDriver } from "./helpers/chain";
import { testClient } from "./helpers/client";
import { expectEnvelope } from "./helpers/http";
import { until } from "./helpers/sse";
import { startTestStack, type TestStack } from "./helpers/stack";
import { tokenFor } from "./helpers/tokens";

describe("tips", () => {
  let stack: TestStack;
  let chain: PublicClient;
  let driver: ChainDriver;
  let db: pg.Client;
  let client: ReturnType<typeof testClient>;
  const tokens: Record<string, string> = {};
  const wallets: Record<string, Address> = {};
  let postId: string;
  let otherPostId: string;

  const usdcOf = (holder: Address) =>
    chain.readContract({
      address: stack.deployment.contracts.usdc,
      abi: TestUSDCAbi,
      functionName: "balanceOf",
      args: [holder],
    });
  const tip = (user: string, body: Record<string, unknown>) =>
    client.call("POST", "/api/tips", { token: tokens[user], body });
  const tipsOf = async (id: string) => (await client.call("GET", `/api/tips?context=blog:${id}`)).body;
  const settled = async (user: string, txId: string) => {
    let status: { status: string; error?: string } = { status: "pending" };
    await until(async () => {
      status = (await client.call("GET", `/api/trade/status/${txId}`, { token: tokens[user] })).body;
      return status.status !== "pending";
    }, `${txId} settled`);
    return status;
  };
  /** A user with a wallet, faucet USDC and, when `deployed`, a smart account on chain (by a first tip). */
  const tipper = async (user: string, options: { deployed: boolean }) => {
    tokens[user] = await tokenFor(user);
    wallets[user] = (await client.call("POST", "/api/wallet/get-or-create", { token: tokens[user] })).body.address;
    expect((await client.call("POST", "/api/wallet/faucet", { token: tokens[user] })).status).toBe(200);
    if (options.deployed) {
      const first = await tip(user, { context: `blog:${otherPostId}`, amount: 0.25 });
      expect(first.status).toBe(200);
      expect((await settled(user, first.body.txId)).status).toBe("confirmed");
    }
  };
  /** Blocks are mined only by `mine` in between: what is sent waits in the mempool. */
  const withBlocksHeld = async <T>(run: (mine: () => Promise<void>) => Promise<T>) => {
    stack.pauseHeartbeat(true);
    await driver.rpc("evm_setAutomine", [false]);
    try {
      return await run(() => driver.rpc("evm_mine"));
    } finally {
      await driver.rpc("evm_setAutomine", [true]);
      stack.pauseHeartbeat(false);
    }
  };

  beforeAll(async () => {
    stack = await startTestStack();
    client = testClient(stack.apiUrl!);
    chain = publicClientFor(stack.rpcUrl);
    driver = chainDriver(stack.rpcUrl, stack.deployment);
    db = new pg.Client(stack.databaseUrl);
    await db.connect();
    for (const author of ["alice", "dave"]) tokens[author] = await tokenFor(author, { roles: ["verified"] });
    const publish = async (author: string, title: string) => {
      const response = await client.call("POST", "/api/blog", { token: tokens[author], body: { title, body: "…" } });
      expect(response.status).toBe(201);
      return response.body.id as string;
    };
    postId = await publish("alice", "A market maker's diary");
    otherPostId = await publish("dave", "Notes on liquidity");
    await tipper("bob", { deployed: true });
  });
  afterAll(async () => {
    await db?.end();
    await stack?.dispose();
  });

  it("moves exactly 1.5 USDC from the tipper's smart account to the author's, with no ETH, listed only once the indexer has the transfer", async () => {
    const context = `blog:${postId}`;
    const { sent, authorBefore, tipperBefore } = await withBlocksHeld(async (mine) => {
      const sent = await tip("bob", { context, amount: 1.5 });
      expect(sent.status).toBe(200);
      expect(sent.body).toMatchObject({
        txId: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        status: "pending",
        context,
        amount: 1.5,
        to: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      });
      const before = { authorBefore: await usdcOf(sent.body.to), tipperBefore: await usdcOf(wallets.bob!) };
      // Sent but not mined: nothing to list yet, whatever the API sent.
      expect(await tipsOf(postId)).toMatchObject({ context, tips: [], count: 0, tipsTotal: 0 });
      await mine();
      return { sent, ...before };
    });

    expect((await settled("bob", sent.body.txId)).status).toBe("confirmed");
    expect((await usdcOf(sent.body.to)) - authorBefore).toBe(toUsdcUnits(1.5));
    expect(tipperBefore - (await usdcOf(wallets.bob!))).toBe(toUsdcUnits(1.5));
    expect(await chain.getBalance({ address: wallets.bob! })).toBe(0n);

    await until(async () => (await tipsOf(postId)).count === 1, "the tip listed");
    const listed = await tipsOf(postId);
    expect(listed).toMatchObject({ context, count: 1, tipsTotal: 1.5, limit: 50, offset: 0 });
    expect(listed.tips).toEqual([
      {
        txId: sent.body.txId,
        userId: "bob",
        from: wallets.bob,
        to: sent.body.to,
        amount: 1.5,
        txHash: sent.body.txHash,
        blockNumber: expect.any(Number),
        confirmedAt: expect.any(String),
      },
    ]);
    expect((await client.call("GET", `/api/blog/${postId}`)).body.tipsTotal).toBe(1.5);

    // The author had no wallet when tipped: the address is the one their wallet gets.
    const authorWallet = await client.call("POST", "/api/wallet/get-or-create", { token: tokens.alice });
    expect(authorWallet.body).toMatchObject({ address: sent.body.to, isNew: true });
  });

  it("ends a tip that reverts on chain `failed`, lists nothing, and ignores a transfer the API did not send as a tip", async () => {
    await tipper("erin", { deployed: true });
    const author = (await client.call("POST", "/api/wallet/get-or-create", { token: tokens.alice })).body
      .address as Address;
    const listedBefore = await tipsOf(postId);
    const authorBefore = await usdcOf(author);
    const balance = await usdcOf(wallets.erin!);

    const { sent, drain } = await withBlocksHeld(async (mine) => {
      const sent = await tip("erin", { context: `blog:${postId}`, amount: 2 });
      expect(sent.status).toBe(200);
      expect(sent.body.txHash).toMatch(/^0x[0-9a-f]{64}$/);
      // Before the bundle is mined, the account's whole balance leaves in a transaction ahead of it
      // in the same block (a higher tip to the block builder), straight to the author, not as a tip.
      const drain = await drainAhead(wallets.erin!, author, balance);
      await mine();
      const receipt = await chain.getTransactionReceipt({ hash: drain });
      expect(receipt.status).toBe("success");
      return { sent, drain };
    });

    const status = await settled("erin", sent.body.txId);
    expect(status).toMatchObject({ status: "failed", error: expect.stringMatching(/^reverted/) });
    expect(await usdcOf(wallets.erin!)).toBe(0n);
    expect((await usdcOf(author)) - authorBefore).toBe(balance);
    const recorded = await db.query("SELECT amount FROM api.tip WHERE user_op_hash = $1", [sent.body.txId]);
    expect(recorded.rows).toEqual([{ amount: "2000000" }]);
    await until(
      async () =>
        (await db.query(`SELECT 1 FROM "${stack.viewsSchema}".usdc_transfer WHERE tx_hash = $1`, [drain])).rowCount ===
        1,
      "the drain indexed",
    );
    expect(await tipsOf(postId)).toEqual(listedBefore);
  });

  it.each([
    { what: "an amount below 0.01", change: { amount: 0.009 }, status: 400, parameter: "amount" },
    { what: "an amount finer than 6 decimals", change: { amount: 1.0000001 }, status: 400, parameter: "amount" },
    { what: "more USDC than the wallet holds", change: { amount: 5_000 }, status: 400, parameter: "amount" },
    {
      what: "a context that is not a post",
      change: { context: "market:fed-cuts-rates-march-2027" },
      status: 400,
      parameter: "context",
    },
    {
      what: "an unknown field",
      change: { to: "0x0000000000000000000000000000000000000001" },
      status: 400,
      parameter: "to",
    },
    { what: "an unknown post", change: { context: "blog:00000000-0000-4000-8000-000000000000" }, status: 404 },
  ])("answers a tip of $what with $status", async ({ change, status, parameter }) => {
    const response = await tip("bob", { context: `blog:${postId}`, amount: 1, ...change });
    expect(response.status).toBe(status);
    expectEnvelope(response.body, status === 404 ? "not_found" : "invalid_parameter");
    if (parameter) expect(response.body.error.details.parameter).toBe(parameter);
  });

  it("refuses tipping one's own post (400), a tipper without a wallet (404) and a missing token (401)", async () => {
    const own = await tip("alice", { context: `blog:${postId}`, amount: 1 });
    expect(own.status).toBe(400);
    expect(own.body.error.details.parameter).toBe("context");
    tokens.carol = await tokenFor("carol");
    const walletless = await tip("carol", { context: `blog:${postId}`, amount: 1 });
    expect(walletless.status).toBe(404);
    expectEnvelope(walletless.body, "wallet_not_found");
    const anonymous = await client.call("POST", "/api/tips", { body: { context: `blog:${postId}`, amount: 1 } });
    expect(anonymous.status).toBe(401);
  });

  it("lists tips of known posts only: 404 for an unknown post, 400 for a context that is not blog:<post id>", async () => {
    const unknown = await client.call("GET", "/api/tips?context=blog:00000000-0000-4000-8000-000000000000");
    expect(unknown.status).toBe(404);
    const malformed = await client.call("GET", "/api/tips?context=blog:42");
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details.parameter).toBe("context");
  });

  /**
   * Sends `amount` USDC from the smart account `from` to `to` as the account itself (impersonated,
   * with ETH for this one transaction), priced to come before anything else waiting for the block.
   */
  async function drainAhead(from: Address, to: Address, amount: bigint): Promise<Hex> {
    await driver.rpc("anvil_impersonateAccount", [from]);
    await driver.rpc("anvil_setBalance", [from, "0x8AC7230489E80000"]);
    const hash = await driver.rpc<Hex>("eth_sendTransaction", [
      {
        from,
        to: stack.deployment.contracts.usdc,
        data: encodeFunctionData({ abi: TestUSDCAbi, functionName: "transfer", args: [to, amount] }),
        gas: "0x30000",
        maxPriorityFeePerGas: "0xE8D4A51000",
        maxFeePerGas: "0x1D1A94A2000",
      },
    ]);
    await driver.rpc("anvil_stopImpersonatingAccount", [from]);
    return hash;
  }
});
