// Gas sponsorship by the sample VerifyingPaymaster (EntryPoint v0.7): the API holds the signer key
// and signs each user operation it agrees to pay for, as viem's paymaster hooks ask.
import { type Address, concat, encodeAbiParameters, type Hex, keccak256 } from "viem";
import type {
  GetPaymasterDataParameters,
  GetPaymasterDataReturnType,
  GetPaymasterStubDataReturnType,
  UserOperation,
} from "viem/account-abstraction";
import { privateKeyToAccount } from "viem/accounts";
import { SPONSORSHIP_VALIDITY_SECONDS } from "../../constants";

/** A well-formed signature by a throwaway key: estimation needs one that ECDSA.recover accepts. */
const STUB_SIGNATURE: Hex =
  "0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c";

export type SponsoredFields = Pick<
  UserOperation<"0.7">,
  | "sender"
  | "nonce"
  | "factory"
  | "factoryData"
  | "callData"
  | "callGasLimit"
  | "verificationGasLimit"
  | "preVerificationGas"
  | "maxFeePerGas"
  | "maxPriorityFeePerGas"
  | "paymasterVerificationGasLimit"
  | "paymasterPostOpGasLimit"
>;

export function verifyingPaymaster(options: { address: Address; signerKey: Hex; chainId: number }) {
  const signer = privateKeyToAccount(options.signerKey);
  const validity = () => {
    const now = Math.floor(Date.now() / 1000);
    return { validUntil: now + SPONSORSHIP_VALIDITY_SECONDS, validAfter: 0 };
  };
  const timestamps = (validUntil: number, validAfter: number) =>
    encodeAbiParameters([{ type: "uint48" }, { type: "uint48" }], [validUntil, validAfter]);

  return {
    async getPaymasterStubData(): Promise<GetPaymasterStubDataReturnType> {
      const { validUntil, validAfter } = validity();
      return {
        paymaster: options.address,
        paymasterData: concat([timestamps(validUntil, validAfter), STUB_SIGNATURE]),
        // The VerifyingPaymaster has no postOp.
        paymasterPostOpGasLimit: 0n,
      };
    },

    async getPaymasterData(parameters: GetPaymasterDataParameters): Promise<GetPaymasterDataReturnType> {
      const userOperation = parameters as unknown as SponsoredFields;
      const { validUntil, validAfter } = validity();
      const hash = sponsorshipHash(userOperation, {
        chainId: options.chainId,
        paymaster: options.address,
        validUntil,
        validAfter,
      });
      const signature = await signer.signMessage({ message: { raw: hash } });
      return {
        paymaster: options.address,
        paymasterData: concat([timestamps(validUntil, validAfter), signature]),
        paymasterVerificationGasLimit: userOperation.paymasterVerificationGasLimit,
        paymasterPostOpGasLimit: userOperation.paymasterPostOpGasLimit ?? 0n,
      };
    },
  };
}

/** VerifyingPaymaster.getHash, computed here instead of with a call to the chain. */
export function sponsorshipHash(
  op: SponsoredFields,
  context: { chainId: number; paymaster: Address; validUntil: number; validAfter: number },
): Hex {
  const pack = (high: bigint, low: bigint) => (high << 128n) | low;
  const initCode = op.factory && op.factoryData ? concat([op.factory, op.factoryData]) : "0x";
  return keccak256(
    encodeAbiParameters(
      [
        { type: "address" },
        { type: "uint256" },
        { type: "bytes32" },
        { type: "bytes32" },
        { type: "uint256" },
        { type: "uint256" },
        { type: "uint256" },
        { type: "uint256" },
        { type: "uint256" },
        { type: "address" },
        { type: "uint48" },
        { type: "uint48" },
      ],
      [
        op.sender,
        op.nonce,
        keccak256(initCode),
        keccak256(op.callData),
        pack(op.verificationGasLimit, op.callGasLimit),
        pack(op.paymasterVerificationGasLimit ?? 0n, op.paymasterPostOpGasLimit ?? 0n),
        op.preVerificationGas,
        pack(op.maxPriorityFeePerGas, op.maxFeePerGas),
        BigInt(context.chainId),
        context.paymaster,
        context.validUntil,
        context.validAfter,
      ],
    ),
  );
}
