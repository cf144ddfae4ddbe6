// The local stack end to end: a brand-new smart account buys outcome tokens in a demo market with
// a user operation whose gas the VerifyingPaymaster pays, and the chain shows the result.

import type { PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MarketAbi, TestUSDCAbi } from "../abis";
import { publicClientFor } from "../api/chain/chain";
import { toUsdcUnits } from "../constants";
import { startTestStack } from "./helpers/stack";
import { newSponsoredAccount } from "./helpers/userOps";

describe("local stack", () => {
  let stack: Awaited<ReturnType<typeof startTestStack>>;
  let chain: PublicClient;

  beforeAll(async () => {
    stack = await startTestStack({ withoutIndexer: true });
    chain = publicClientFor(stack.rpcUrl);
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  it("deploys ERC-4337, the USDC and the demo markets", async () => {
    const { contracts, markets } = stack.deployment;
    for (const address of Object.values(contracts)) {
      expect(await chain.getCode({ address }), address).toMatch(/^0x[0-9a-f]{10,}/);
    }
    expect(markets.length).toBeGreaterThanOrEqual(3);
    for (const market of markets) {
      const count = await chain.readContract({ address: market.address, abi: MarketAbi, functionName: "outcomeCount" });
      expect(count).toBeGreaterThanOrEqual(2);
      expect(count).toBeLessThanOrEqual(4);
    }
  });

  it("a new smart account buys outcome tokens with sponsored gas", async () => {
    const { contracts, markets } = stack.deployment;
    const market = markets[0]!.address;
    const user = await newSponsoredAccount(stack, chain);
    expect(await chain.getCode({ address: user.account.address })).toBeUndefined();
    const funding = toUsdcUnits(25);
    await user.mintUsdc(funding);

    const spend = toUsdcUnits(10);
    const [quotedTokens] = await chain.readContract({
      address: market,
      abi: MarketAbi,
      functionName: "quoteBuy",
      args: [0n, spend],
    });
    const ethBefore = await chain.getBalance({ address: user.account.address });
    const { success } = await user.buy(market, 0, spend, quotedTokens);

    expect(success).toBe(true);
    expect(ethBefore).toBe(0n);
    expect(await chain.getBalance({ address: user.account.address })).toBe(0n);
    expect(
      await chain.readContract({
        address: market,
        abi: MarketAbi,
        functionName: "balanceOf",
        args: [user.account.address, 0n],
      }),
    ).toBe(quotedTokens);
    expect(
      await chain.readContract({
        address: contracts.usdc,
        abi: TestUSDCAbi,
        functionName: "balanceOf",
        args: [user.account.address],
      }),
    ).toBe(funding - spend);
  });
});
