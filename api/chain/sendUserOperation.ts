// One sponsored user operation from a user's smart account: the chain half of a sponsored write
// (api/writes/sponsoredWrite.ts is the other half, which records it).
import { type Address, type Hex, http } from "viem";
import { createPaymasterClient, getUserOperationHash, type UserOperation } from "viem/account-abstraction";
import { SPONSORSHIP_VALIDITY_SECONDS } from "../../constants";
import type { ChainAccess } from "./access";
import { bundleTransaction, classifySendFailure, sponsoredBundlerClient, withRetries } from "./bundler";
import { createDeploymentGate } from "./deploymentGate";
import { verifyingPaymaster } from "./paymaster";
import { type Sponsor, simpleAccount } from "./smartAccount";

export type Call = { to: Address; data: Hex };

/** Who pays for gas: the local VerifyingPaymaster's signer, or an ERC-7677 paymaster service. */
export type SponsorChoice = { signerKey: Hex } | { paymasterUrl: string };

export type SendSponsoredUserOperationParameters = {
  chain: ChainAccess;
  bundlerUrl: string;
  sponsor: SponsorChoice;
  /** The smart account's owner key (api/chain/walletKeys.ts). */
  ownerKey: Hex;
  calls: Call[];
  /** Called with the operation's hash before it goes to the bundler, so that a record can name it. */
  beforeSend: (userOpHash: Hex) => Promise<void>;
};

export type SendSponsoredUserOperationReturnType = {
  userOpHash: Hex;
  /** The bundle transaction, or null if the bundler had not sent it within 5 s. */
  txHash: Hex | null;
  /** Unix seconds after which the sponsorship, and so the operation, can no longer be included. */
  validUntil: number;
};

/** The call gas the bundler estimated, with margin: its estimate leaves the inner call none. */
export const paddedCallGasLimit = (estimate: bigint) => estimate + estimate / 2n + 100_000n;

/** A random 192-bit nonce key, so that one user's concurrent operations never compete for one sequence. */
export const randomNonceKey = () =>
  BigInt(`0x${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("hex")}`);

const deploymentGate = createDeploymentGate();

/**
 * Sends the calls as one user operation, gas sponsored. Fails with a BundlerUnavailableError
 * (nothing reached the bundler), a UserOperationRejectedError (the bundler refused it), or the
 * error of `beforeSend` itself.
 *
 * @example
 * const { userOpHash, txHash } = await sendSponsoredUserOperation({
 *   chain, bundlerUrl, sponsor: { signerKey }, ownerKey, calls: claimCalls(market),
 *   beforeSend: (hash) => submissions.attach(id, hash),
 * });
 */
export async function sendSponsoredUserOperation(
  parameters: SendSponsoredUserOperationParameters,
): Promise<SendSponsoredUserOperationReturnType> {
  const { chain, calls, beforeSend } = parameters;
  const { chainId } = chain.deployment;
  // The caller's own failure (its record could not be written) passes through as it is.
  let beforeSendFailure: { error: unknown } | undefined;
  try {
    const account = await simpleAccount(chain.publicClient, parameters.ownerKey);
    const paymaster: Sponsor =
      "paymasterUrl" in parameters.sponsor
        ? createPaymasterClient({ transport: http(parameters.sponsor.paymasterUrl) })
        : verifyingPaymaster({
            address: chain.deployment.contracts.verifyingPaymaster,
            signerKey: parameters.sponsor.signerKey,
            chainId,
          });
    const bundler = sponsoredBundlerClient({
      publicClient: chain.publicClient,
      account,
      bundlerUrl: parameters.bundlerUrl,
      paymaster,
    });
    const nonceKey = randomNonceKey();
    const validUntil = Math.floor(Date.now() / 1000) + SPONSORSHIP_VALIDITY_SECONDS;

    const send = async () => {
      const nonce = await account.getNonce({ key: nonceKey });
      return withRetries(async () => {
        // prepareUserOperation leaves its estimation stub in `signature`; the account signs anew.
        const { signature: _stub, ...prepared } = await bundler.prepareUserOperation({ calls, nonce });
        // Under load a few operations ran out of gas on chain with the bare estimate; the EntryPoint
        // charges only a tenth of what goes unused, so the margin is cheap.
        const callGasLimit = paddedCallGasLimit(prepared.callGasLimit);
        const sponsorship = await paymaster.getPaymasterData({
          ...prepared,
          callGasLimit,
          chainId,
          entryPointAddress: account.entryPoint.address,
        } as Parameters<typeof paymaster.getPaymasterData>[0]);
        const operation = { ...prepared, callGasLimit, ...sponsorship } as unknown as UserOperation<"0.7">;
        const signature = await account.signUserOperation(operation);
        const hash = getUserOperationHash({
          userOperation: { ...operation, signature },
          entryPointAddress: account.entryPoint.address,
          entryPointVersion: "0.7",
          chainId,
        });
        await beforeSend(hash).catch((error) => {
          beforeSendFailure = { error };
          throw error;
        });
        return bundler.sendUserOperation({ ...operation, signature } as unknown as Parameters<
          typeof bundler.sendUserOperation
        >[0]);
      });
    };

    const userOpHash = await deploymentGate.send({
      account,
      send,
      included: (hash) => bundler.waitForUserOperationReceipt({ hash, timeout: 60_000 }),
    });
    return { userOpHash, txHash: await bundleTransaction(bundler, userOpHash), validUntil };
  } catch (error) {
    if (beforeSendFailure) throw beforeSendFailure.error;
    throw classifySendFailure(error);
  }
}
