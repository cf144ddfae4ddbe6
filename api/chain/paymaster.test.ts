import fc from "fast-check";
import {
  type Address,
  encodeAbiParameters,
  type Hex,
  hexToBigInt,
  keccak256,
  recoverMessageAddress,
  slice,
} from "viem";
import { toPackedUserOperation, type UserOperation } from "viem/account-abstraction";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { SPONSORSHIP_VALIDITY_SECONDS } from "../../constants";
import { type SponsoredFields, sponsorshipHash, verifyingPaymaster } from "./paymaster";

const PAYMASTER: Address = "0x00000000000000000000000000000000000000bb";
const SIGNER_KEY: Hex = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const CONTEXT = { chainId: 2010111, paymaster: PAYMASTER, validUntil: 1_800_000_000, validAfter: 0 };

const uint = (bits: number) => fc.bigInt({ min: 0n, max: 2n ** BigInt(bits) - 1n });
const bytes = (max: number) =>
  fc.uint8Array({ maxLength: max }).map((array) => `0x${Buffer.from(array).toString("hex")}` as Hex);
const address = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((a) => `0x${Buffer.from(a).toString("hex")}` as Address);

/** The fields of a v0.7 user operation that the sponsorship signs. */
const operation: fc.Arbitrary<SponsoredFields> = fc.record({
  sender: address,
  nonce: uint(256),
  factory: fc.option(address, { nil: undefined }),
  factoryData: fc.option(bytes(100), { nil: undefined }),
  callData: bytes(300),
  callGasLimit: uint(128),
  verificationGasLimit: uint(128),
  preVerificationGas: uint(256),
  maxFeePerGas: uint(128),
  maxPriorityFeePerGas: uint(128),
  paymasterVerificationGasLimit: uint(128),
  paymasterPostOpGasLimit: uint(128),
});

/**
 * VerifyingPaymaster.getHash as the Solidity reads it: from the packed operation viem builds for the
 * EntryPoint, slicing the paymaster gas limits out of paymasterAndData (bytes 20 to 52).
 */
function getHashAsTheContract(op: SponsoredFields, context: typeof CONTEXT): Hex {
  const packed = toPackedUserOperation({
    ...op,
    paymaster: context.paymaster,
    paymasterData: "0x",
    signature: "0x",
  } as UserOperation<"0.7">);
  return keccak256(
    encodeAbiParameters(
      [
        { type: "address" },
        { type: "uint256" },
        { type: "bytes32" },
        { type: "bytes32" },
        { type: "bytes32" },
        { type: "uint256" },
        { type: "uint256" },
        { type: "bytes32" },
        { type: "uint256" },
        { type: "address" },
        { type: "uint48" },
        { type: "uint48" },
      ],
      [
        packed.sender,
        packed.nonce,
        keccak256(packed.initCode),
        keccak256(packed.callData),
        packed.accountGasLimits,
        hexToBigInt(slice(packed.paymasterAndData, 20, 52)),
        packed.preVerificationGas,
        packed.gasFees,
        BigInt(context.chainId),
        context.paymaster,
        context.validUntil,
        context.validAfter,
      ],
    ),
  );
}

describe("sponsorshipHash", () => {
  it("equals VerifyingPaymaster.getHash computed from the packed user operation", () => {
    fc.assert(
      fc.property(operation, (op) => {
        // The account sends initCode only with both parts; the packing drops a lone factory too.
        const consistent = op.factory && op.factoryData ? op : { ...op, factory: undefined, factoryData: undefined };
        expect(sponsorshipHash(consistent, CONTEXT)).toBe(getHashAsTheContract(consistent, CONTEXT));
      }),
      { numRuns: 200 },
    );
  });

  it("is the same for the same operation and changes with every signed field", () => {
    fc.assert(
      fc.property(operation, (op) => {
        const hash = sponsorshipHash(op, CONTEXT);
        expect(sponsorshipHash({ ...op }, { ...CONTEXT })).toBe(hash);
        const changed: Partial<SponsoredFields>[] = [
          { nonce: op.nonce ^ 1n },
          { callData: `${op.callData}00` as Hex },
          { callGasLimit: op.callGasLimit ^ 1n },
          { verificationGasLimit: op.verificationGasLimit ^ 1n },
          { preVerificationGas: op.preVerificationGas ^ 1n },
          { maxFeePerGas: op.maxFeePerGas ^ 1n },
          { maxPriorityFeePerGas: op.maxPriorityFeePerGas ^ 1n },
          { paymasterVerificationGasLimit: (op.paymasterVerificationGasLimit ?? 0n) ^ 1n },
        ];
        for (const fields of changed) expect(sponsorshipHash({ ...op, ...fields }, CONTEXT)).not.toBe(hash);
        for (const context of [{ chainId: 1 }, { validUntil: CONTEXT.validUntil + 1 }, { validAfter: 1 }])
          expect(sponsorshipHash(op, { ...CONTEXT, ...context })).not.toBe(hash);
      }),
      { numRuns: 50 },
    );
  });
});

describe("verifyingPaymaster", () => {
  const paymaster = verifyingPaymaster({ address: PAYMASTER, signerKey: SIGNER_KEY, chainId: CONTEXT.chainId });
  const op = fc.sample(operation, { numRuns: 1, seed: 7 })[0]!;

  it("signs the sponsorship hash with the signer key, valid for SPONSORSHIP_VALIDITY_SECONDS from now", async () => {
    const now = Math.floor(Date.now() / 1000);
    const data = await paymaster.getPaymasterData({ ...op, chainId: CONTEXT.chainId } as never);
    expect(data.paymaster).toBe(PAYMASTER);
    const validUntil = Number(hexToBigInt(slice(data.paymasterData!, 0, 32)));
    const validAfter = Number(hexToBigInt(slice(data.paymasterData!, 32, 64)));
    expect(validUntil - now).toBeGreaterThanOrEqual(SPONSORSHIP_VALIDITY_SECONDS);
    expect(validUntil - now).toBeLessThanOrEqual(SPONSORSHIP_VALIDITY_SECONDS + 1);
    expect(validAfter).toBe(0);
    const hash = sponsorshipHash(op, { ...CONTEXT, validUntil, validAfter });
    const signer = await recoverMessageAddress({ message: { raw: hash }, signature: slice(data.paymasterData!, 64) });
    expect(signer).toBe(privateKeyToAccount(SIGNER_KEY).address);
  });

  it("gives estimation a stub of the same layout: timestamps and a 65-byte signature", async () => {
    const stub = await paymaster.getPaymasterStubData();
    expect(stub).toMatchObject({ paymaster: PAYMASTER, paymasterPostOpGasLimit: 0n });
    expect((stub.paymasterData!.length - 2) / 2).toBe(64 + 65);
  });
});
