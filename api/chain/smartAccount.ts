// A user's SimpleAccount v0.7, and who may sponsor its user operations.
import { toSimpleSmartAccount } from "permissionless/accounts";
import type { Hex, PublicClient } from "viem";
import type {
  GetPaymasterDataParameters,
  GetPaymasterDataReturnType,
  GetPaymasterStubDataParameters,
  GetPaymasterStubDataReturnType,
} from "viem/account-abstraction";
import { entryPoint07Address } from "viem/account-abstraction";
import { privateKeyToAccount } from "viem/accounts";

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
