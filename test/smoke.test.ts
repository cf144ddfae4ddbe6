// The local stack end to end: a brand-new smart account buys outcome tokens in a demo market with
// a user operation whose gas the VerifyingPaymaster pays, and the chain shows the result.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeFunctionData, parseUnits, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createWalletClient, http } from "viem";
import { MarketAbi, TestUSDCAbi } from "../abis";
import { publicClientFor, testNetwork } from "../api/chain/chain";
import { verifyingPaymaster } from "../api/chain/paymaster";
import { simpleAccount, sponsoredBundlerClient } from "../api/chain/smartAccount";
import { startTestStack } from "./helpers/stack";

describe("local stack", () => {
  let stack: Awaited<ReturnType<typeof startTestStack>>;
  let publicClient: PublicClient;

  beforeAll(async () => {
    stack = await startTestStack();
    publicClient = publicClientFor(stack.rpcUrl);
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  it("deploys ERC-4337, the USDC and the demo markets", async () => {
    const { contracts, markets } = stack.deployment;
    for (const address of [contracts.entryPoint, contracts.simpleAccountFactory, contracts.verifyingPaymaster, contracts.usdc, contracts.marketFactory]) {
      expect(await publicClient.getCode({ address }), address).toMatch(/^0x[0-9a-f]{10,}/);
    }
    expect(markets.length).toBeGreaterThanOrEqual(3);
    for (const market of markets) {
      const count = await publicClient.readContract({ address: market.address, abi: MarketAbi, functionName: "outcomeCount" });
      expect(count).toBeGreaterThanOrEqual(2);
      expect(count).toBeLessThanOrEqual(4);
    }
  });

  it("a new smart account buys outcome tokens with sponsored gas", async () => {
    const { contracts, markets } = stack.deployment;
    const market = markets[0]!.address;
    const account = await simpleAccount(publicClient, generatePrivateKey());
    const bundler = sponsoredBundlerClient({
      publicClient,
      account,
      bundlerUrl: stack.bundlerUrl,
      paymaster: verifyingPaymaster({ address: contracts.verifyingPaymaster, signerKey: stack.keys.paymasterSigner, chainId: stack.deployment.chainId }),
    });
    expect(await publicClient.getCode({ address: account.address })).toBeUndefined();

    const operator = createWalletClient({ chain: testNetwork(stack.rpcUrl), transport: http(stack.rpcUrl), account: privateKeyToAccount(stack.keys.operator) });
    const funding = parseUnits("25", 6);
    await publicClient.waitForTransactionReceipt({
      hash: await operator.writeContract({ address: contracts.usdc, abi: TestUSDCAbi, functionName: "mint", args: [account.address, funding] }),
    });

    const spend = parseUnits("10", 6);
    const [quotedTokens] = await publicClient.readContract({ address: market, abi: MarketAbi, functionName: "quoteBuy", args: [0n, spend] });
    const ethBefore = await publicClient.getBalance({ address: account.address });

    const userOpHash = await bundler.sendUserOperation({
      calls: [
        { to: contracts.usdc, data: encodeFunctionData({ abi: TestUSDCAbi, functionName: "approve", args: [market, spend] }) },
        { to: market, data: encodeFunctionData({ abi: MarketAbi, functionName: "buy", args: [0n, spend, quotedTokens] }) },
      ],
    });
    const receipt = await bundler.waitForUserOperationReceipt({ hash: userOpHash, timeout: 30_000 });

    expect(receipt.success).toBe(true);
    expect(receipt.paymaster?.toLowerCase()).toBe(contracts.verifyingPaymaster.toLowerCase());
    expect(ethBefore).toBe(0n);
    expect(await publicClient.getBalance({ address: account.address })).toBe(0n);
    expect(await publicClient.readContract({ address: market, abi: MarketAbi, functionName: "balanceOf", args: [account.address, 0n] })).toBe(quotedTokens);
    expect(await publicClient.readContract({ address: contracts.usdc, abi: TestUSDCAbi, functionName: "balanceOf", args: [account.address] })).toBe(funding - spend);
  });
});
