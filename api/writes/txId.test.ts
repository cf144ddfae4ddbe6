// A write's txId is viem's getUserOperationHash (api/chain/sendUserOperation.ts); the indexer
// computes the hash itself from the bundle's calldata (src/lib/userOperations.ts). The two must
// agree, or no write would ever be confirmed. (This test lives here because Ponder executes every
// file under src/.)
import fc from "fast-check";
import { type Address, encodeFunctionData, type Hex } from "viem";
import {
  entryPoint07Address,
  getUserOperationHash,
  toPackedUserOperation,
  type UserOperation,
} from "viem/account-abstraction";
import { describe, expect, it } from "vitest";
import { EntryPointAbi } from "../../abis";
import { TEST_NETWORK_CHAIN_ID } from "../../constants";
import { userOpHash, userOpHashFor } from "../../src/lib/userOperations";

const uint = (bits: number) => fc.bigInt({ min: 0n, max: 2n ** BigInt(bits) - 1n });
const bytes = (max: number) =>
  fc.uint8Array({ maxLength: max }).map((array) => `0x${Buffer.from(array).toString("hex")}` as Hex);
const address = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((array) => `0x${Buffer.from(array).toString("hex")}` as Address);

const userOperation: fc.Arbitrary<UserOperation<"0.7">> = fc
  .record({
    sender: address,
    nonce: uint(256),
    callData: bytes(200),
    callGasLimit: uint(128),
    verificationGasLimit: uint(128),
    preVerificationGas: uint(256),
    maxFeePerGas: uint(128),
    maxPriorityFeePerGas: uint(128),
    signature: bytes(65),
    deployment: fc.option(fc.record({ factory: address, factoryData: bytes(100) }), { nil: undefined }),
    sponsor: fc.option(
      fc.record({
        paymaster: address,
        paymasterData: bytes(129),
        paymasterVerificationGasLimit: uint(128),
        paymasterPostOpGasLimit: uint(128),
      }),
      { nil: undefined },
    ),
  })
  .map(({ deployment, sponsor, ...op }) => ({ ...op, ...deployment, ...sponsor }) as UserOperation<"0.7">);

const viemHash = (op: UserOperation<"0.7">) =>
  getUserOperationHash({
    userOperation: op,
    entryPointAddress: entryPoint07Address,
    entryPointVersion: "0.7",
    chainId: TEST_NETWORK_CHAIN_ID,
  });

const bundle = (ops: UserOperation<"0.7">[], hash: Hex) => ({
  hash,
  to: entryPoint07Address,
  input: encodeFunctionData({
    abi: EntryPointAbi,
    functionName: "handleOps",
    args: [ops.map((op) => toPackedUserOperation(op)), "0x000000000000000000000000000000000000beef"],
  }),
});

describe("userOpHash", () => {
  it("equals viem's getUserOperationHash (EntryPoint v0.7) for any operation", () => {
    fc.assert(
      fc.property(userOperation, (op) => {
        expect(userOpHash(toPackedUserOperation(op), entryPoint07Address, TEST_NETWORK_CHAIN_ID)).toBe(viemHash(op));
      }),
      { numRuns: 200 },
    );
  });

  it("depends on the chain and the EntryPoint, not on the signature", () => {
    const [op] = fc.sample(userOperation, { numRuns: 1, seed: 1 });
    const packed = toPackedUserOperation(op!);
    const hash = userOpHash(packed, entryPoint07Address, TEST_NETWORK_CHAIN_ID);
    expect(userOpHash(packed, entryPoint07Address, 1)).not.toBe(hash);
    expect(userOpHash(packed, "0x0000000000000000000000000000000000000001", TEST_NETWORK_CHAIN_ID)).not.toBe(hash);
    expect(userOpHash({ ...packed, signature: "0x01" } as never, entryPoint07Address, TEST_NETWORK_CHAIN_ID)).toBe(
      hash,
    );
  });
});

describe("userOpHashFor", () => {
  const ops = fc.sample(userOperation, { numRuns: 3, seed: 2 });

  it("finds the sender's operation in a bundle's handleOps calldata and hashes it", () => {
    const transaction = bundle(ops, `0x${"01".repeat(32)}`);
    for (const op of ops)
      expect(userOpHashFor(transaction, op.sender, entryPoint07Address, TEST_NETWORK_CHAIN_ID)).toBe(viemHash(op));
  });

  it("is null for a sender not in the bundle, a transaction to another contract, or other calldata", () => {
    const transaction = bundle(ops, `0x${"02".repeat(32)}`);
    const stranger = "0x000000000000000000000000000000000000dead";
    expect(userOpHashFor(transaction, stranger, entryPoint07Address, TEST_NETWORK_CHAIN_ID)).toBeNull();
    const elsewhere = { ...transaction, hash: `0x${"03".repeat(32)}` as Hex, to: stranger as Address };
    expect(userOpHashFor(elsewhere, ops[0]!.sender, entryPoint07Address, TEST_NETWORK_CHAIN_ID)).toBeNull();
    const notABundle = { hash: `0x${"04".repeat(32)}` as Hex, to: entryPoint07Address, input: "0x12345678" as Hex };
    expect(userOpHashFor(notABundle, ops[0]!.sender, entryPoint07Address, TEST_NETWORK_CHAIN_ID)).toBeNull();
    expect(userOpHashFor({ ...notABundle, to: null }, ops[0]!.sender, entryPoint07Address, 1)).toBeNull();
  });
});
