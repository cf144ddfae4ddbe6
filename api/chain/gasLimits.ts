// Gas limits of a user operation without the bundler's estimation. The bundler's
// eth_estimateUserOperationGas runs several simulations (a binary search of the call gas, the
// validation, the paymaster) and took most of a write's time under load. Of what it returns, only
// the call gas depends on what the calls do; the rest depends on the account, the paymaster and
// the size of the operation. So the first operation of each size is estimated by the bundler, its
// validation-side limits are kept, and later operations of that size ask the chain node for their
// call gas alone: one eth_estimateGas, which also refuses a call that would revert, as the
// bundler's estimation did. The bundler still validates every operation on eth_sendUserOperation.
import type { Address, Hex, PublicClient } from "viem";

/** The limits that do not depend on what the calls do, for a deployed account and a given sponsor. */
export type ValidationGasLimits = {
  verificationGasLimit: bigint;
  preVerificationGas: bigint;
  paymasterVerificationGasLimit: bigint;
  paymasterPostOpGasLimit: bigint;
};

/**
 * Which operations share validation-side limits: the same sponsor and the same call data size.
 * Signature, nonce and paymaster data have fixed sizes, and an operation that deploys its account
 * is never looked up here, so the size of the call data is what changes the pre-verification gas.
 */
export const gasShapeKey = (parameters: { sponsor: string; callData: Hex }) =>
  `${parameters.sponsor}:${(parameters.callData.length - 2) / 2}`;

export type GasLimitCache = ReturnType<typeof createGasLimitCache>;

/** Validation-side limits by shape, as the bundler last estimated them. */
export function createGasLimitCache() {
  const limits = new Map<string, ValidationGasLimits>();
  return {
    get: (key: string) => limits.get(key),
    /** Keeps what the bundler estimated for an operation of this shape. */
    remember(key: string, estimated: Partial<ValidationGasLimits>) {
      const { verificationGasLimit, preVerificationGas, paymasterVerificationGasLimit } = estimated;
      if (verificationGasLimit === undefined || preVerificationGas === undefined) return;
      if (paymasterVerificationGasLimit === undefined) return;
      limits.set(key, {
        verificationGasLimit,
        preVerificationGas,
        paymasterVerificationGasLimit,
        paymasterPostOpGasLimit: estimated.paymasterPostOpGasLimit ?? 0n,
      });
    },
    /** Drops a shape whose limits the bundler refused, so that the next operation is estimated again. */
    forget: (key: string) => limits.delete(key),
    get size() {
      return limits.size;
    },
  };
}

/**
 * The gas of the account's call as the EntryPoint makes it (the EntryPoint as sender), estimated by
 * the chain node. It counts the intrinsic cost of a transaction too, which the EntryPoint's inner
 * call does not pay: a little margin on top of the caller's own. Fails when the call reverts.
 */
export async function callGasEstimate(
  publicClient: PublicClient,
  parameters: { entryPoint: Address; sender: Address; callData: Hex },
): Promise<bigint> {
  return publicClient.estimateGas({
    account: parameters.entryPoint,
    to: parameters.sender,
    data: parameters.callData,
  });
}
