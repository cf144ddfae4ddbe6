// One sponsored user operation from a user's smart account: the chain half of a sponsored write
// (api/writes/sponsoredWrite.ts is the other half, which records it).
import { type Address, type Hex, http } from "viem";
import { createPaymasterClient, getUserOperationHash, type UserOperation } from "viem/account-abstraction";
import { SPONSORSHIP_VALIDITY_SECONDS } from "../../constants";
import type { ChainAccess } from "./access";
import {
  bundleTransaction,
  classifySendFailure,
  isTransientRefusal,
  isUnreachable,
  mayHaveReached,
  SendOutcomeUnknownError,
  sponsoredBundlerClient,
  userOperationGasPrice,
  withRetries,
} from "./bundler";
import { createDeploymentGate } from "./deploymentGate";
import { callGasEstimate, createGasLimitCache, gasShapeKey, type ValidationGasLimits } from "./gasLimits";
import { verifyingPaymaster } from "./paymaster";
import { keptSimpleAccount, type Sponsor } from "./smartAccount";

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
  /**
   * Called with the operation's hash and the signed operation before it goes to the bundler, so that
   * a record can name it and send it again if the bundler loses it.
   */
  beforeSend: (userOpHash: Hex, operation: UserOperation<"0.7">) => Promise<void>;
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
const gasLimits = createGasLimitCache();

type Prepared = Omit<UserOperation<"0.7">, "signature" | "paymaster" | "paymasterData">;

/** The bundler refused an operation whose limits were kept from an earlier estimate. */
class KnownLimitsRefused extends Error {
  constructor(cause: unknown) {
    super("refused with known gas limits", { cause });
  }
}

/**
 * Sends the calls as one user operation, gas sponsored. Fails with a BundlerUnavailableError
 * (nothing reached the bundler), a UserOperationRejectedError (the bundler refused it), a
 * SendOutcomeUnknownError (sent, and no answer came back), or the error of `beforeSend` itself.
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
    const account = await keptSimpleAccount(chain.publicClient, parameters.ownerKey);
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
    // A key never used before has sequence 0: the nonce needs no round trip.
    const nonce = randomNonceKey() << 64n;
    const validUntil = Math.floor(Date.now() / 1000) + SPONSORSHIP_VALIDITY_SECONDS;
    const callData = await account.encodeCalls(calls);
    const shape = gasShapeKey({
      sponsor:
        "paymasterUrl" in parameters.sponsor
          ? parameters.sponsor.paymasterUrl
          : chain.deployment.contracts.verifyingPaymaster,
      callData,
    });

    /** The operation with its gas limits, estimated by the bundler or from the limits known for its shape. */
    const prepare = async (known: ValidationGasLimits | undefined): Promise<Prepared> => {
      if (known) {
        const [fees, callGasLimit] = await Promise.all([
          userOperationGasPrice(bundler),
          callGasEstimate(chain.publicClient, {
            entryPoint: account.entryPoint.address,
            sender: account.address,
            callData,
          }),
        ]);
        return { sender: account.address, nonce, callData, callGasLimit, ...fees, ...known };
      }
      // prepareUserOperation leaves its estimation stub in `signature`; the account signs anew.
      const { signature: _stub, ...estimated } = await bundler.prepareUserOperation({ callData, nonce });
      if (!estimated.factory) gasLimits.remember(shape, estimated);
      return estimated as Prepared;
    };

    const sendWith = async (known: ValidationGasLimits | undefined) => {
      const prepared = await prepare(known);
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
      await beforeSend(hash, { ...operation, signature }).catch((error) => {
        beforeSendFailure = { error };
        throw error;
      });
      return bundler
        .sendUserOperation({ ...operation, signature } as unknown as Parameters<typeof bundler.sendUserOperation>[0])
        .catch((error) => {
          // Signing anew would give the same nonce another hash; the one sent may still be included.
          if (mayHaveReached(error)) throw new SendOutcomeUnknownError({ cause: error, userOpHash: hash });
          throw known && !isUnreachable(error) && !isTransientRefusal(error) ? new KnownLimitsRefused(error) : error;
        });
    };

    const send = () =>
      withRetries(async () => {
        const known = (await account.isDeployed()) ? gasLimits.get(shape) : undefined;
        try {
          return await sendWith(known);
        } catch (error) {
          if (!(error instanceof KnownLimitsRefused)) throw error;
          // The bundler refused limits kept from an earlier estimate: estimate this shape again.
          gasLimits.forget(shape);
          return sendWith(undefined);
        }
      });

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
