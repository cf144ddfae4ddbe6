// A brand-new smart account that trades through the bundler with sponsored gas, as the API will.
import { type Address, createWalletClient, encodeFunctionData, type Hex, http, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { MarketAbi, TestUSDCAbi } from "../../abis";
import { sponsoredBundlerClient } from "../../api/chain/bundler";
import { testNetwork } from "../../api/chain/chain";
import { verifyingPaymaster } from "../../api/chain/paymaster";
import { simpleAccount } from "../../api/chain/smartAccount";
import type { Stack } from "../../scripts/stack";

export async function newSponsoredAccount(stack: Stack, chain: PublicClient) {
  const { contracts, chainId } = stack.deployment;
  const account = await simpleAccount(chain, generatePrivateKey());
  const bundler = sponsoredBundlerClient({
    publicClient: chain,
    account,
    bundlerUrl: stack.bundlerUrl,
    paymaster: verifyingPaymaster({
      address: contracts.verifyingPaymaster,
      signerKey: stack.keys.paymasterSigner,
      chainId,
    }),
  });
  const operator = createWalletClient({
    chain: testNetwork(stack.rpcUrl),
    transport: http(stack.rpcUrl),
    account: privateKeyToAccount(stack.keys.operator),
  });

  return {
    account,
    bundler,
    async mintUsdc(amount: bigint) {
      const hash = await operator.writeContract({
        address: contracts.usdc,
        abi: TestUSDCAbi,
        functionName: "mint",
        args: [account.address, amount],
      });
      await chain.waitForTransactionReceipt({ hash });
    },
    /** Approve and buy in one sponsored user operation; resolves with its hash once included. */
    async buy(
      market: Address,
      outcome: number,
      spend: bigint,
      minTokensOut = 0n,
    ): Promise<{ userOpHash: Hex; success: boolean }> {
      const userOpHash = await bundler.sendUserOperation({
        calls: [
          {
            to: contracts.usdc,
            data: encodeFunctionData({ abi: TestUSDCAbi, functionName: "approve", args: [market, spend] }),
          },
          {
            to: market,
            data: encodeFunctionData({
              abi: MarketAbi,
              functionName: "buy",
              args: [BigInt(outcome), spend, minTokensOut],
            }),
          },
        ],
      });
      const receipt = await bundler.waitForUserOperationReceipt({ hash: userOpHash, timeout: 30_000 });
      return { userOpHash, success: receipt.success };
    },
  };
}
