// A user's SimpleAccount v0.7 and the bundler client that sends its sponsored user operations.
import type { Hex, PublicClient } from "viem";
import { http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createBundlerClient, entryPoint07Address } from "viem/account-abstraction";
import { toSimpleSmartAccount } from "permissionless/accounts";
import type { GetPaymasterDataParameters, GetPaymasterDataReturnType, GetPaymasterStubDataParameters, GetPaymasterStubDataReturnType } from "viem/account-abstraction";

/** Who pays for gas: the local VerifyingPaymaster signer, or an ERC-7677 paymaster service. */
export type Sponsor = {
  getPaymasterStubData: (parameters: GetPaymasterStubDataParameters) => Promise<GetPaymasterStubDataReturnType>;
  getPaymasterData: (parameters: GetPaymasterDataParameters) => Promise<GetPaymasterDataReturnType>;
};

export async function simpleAccount(publicClient: PublicClient, ownerKey: Hex) {
  return toSimpleSmartAccount({
    client: publicClient,
    owner: privateKeyToAccount(ownerKey),
    entryPoint: { address: entryPoint07Address, version: "0.7" },
  });
}

export type SimpleAccount = Awaited<ReturnType<typeof simpleAccount>>;

export function sponsoredBundlerClient(options: {
  publicClient: PublicClient;
  account: SimpleAccount;
  bundlerUrl: string;
  paymaster: Sponsor;
}) {
  return createBundlerClient({
    client: options.publicClient,
    account: options.account,
    transport: http(options.bundlerUrl),
    paymaster: options.paymaster,
    pollingInterval: 100,
    // Gas is sponsored, but the bundler still prices it: ask the bundler, not the node.
    userOperation: {
      estimateFeesPerGas: async ({ bundlerClient }) => {
        const fees = await bundlerClient.request({ method: "pimlico_getUserOperationGasPrice" as never } as never) as {
          fast: { maxFeePerGas: Hex; maxPriorityFeePerGas: Hex };
        };
        return { maxFeePerGas: BigInt(fees.fast.maxFeePerGas), maxPriorityFeePerGas: BigInt(fees.fast.maxPriorityFeePerGas) };
      },
    },
  });
}
