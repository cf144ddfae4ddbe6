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

/** Owners whose accounts one process keeps; beyond it the oldest is built again when next used. */
const ACCOUNTS_KEPT = 10_000;
const kept = new WeakMap<PublicClient, Map<Hex, Promise<SimpleAccount>>>();

/**
 * The same account object for the same owner, so that its address (an eth_call) is looked up once
 * and, once it is deployed, never asked again (the object remembers it): two round trips less per
 * write of a returning user.
 */
export function keptSimpleAccount(publicClient: PublicClient, ownerKey: Hex): Promise<SimpleAccount> {
  const accounts = kept.get(publicClient) ?? new Map<Hex, Promise<SimpleAccount>>();
  kept.set(publicClient, accounts);
  const existing = accounts.get(ownerKey);
  if (existing) return existing;
  const account = simpleAccount(publicClient, ownerKey);
  accounts.set(ownerKey, account);
  if (accounts.size > ACCOUNTS_KEPT) accounts.delete(accounts.keys().next().value as Hex);
  account.catch(() => accounts.delete(ownerKey));
  return account;
}
