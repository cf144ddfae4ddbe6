// Which user operation a log came from, from the bundle transaction's own calldata: the EntryPoint
// emits UserOperationEvent only after the operation's inner logs, so the indexer cannot wait for it.
import { type Address, decodeFunctionData, encodeAbiParameters, type Hex, isAddressEqual, keccak256 } from "viem";
import { EntryPointAbi } from "../../abis";

type PackedOp = {
  sender: Address;
  nonce: bigint;
  initCode: Hex;
  callData: Hex;
  accountGasLimits: Hex;
  preVerificationGas: bigint;
  gasFees: Hex;
  paymasterAndData: Hex;
};

/** Bundles seen recently, decoded once each; pure in the transaction, so safe across reorgs. */
const decoded = new Map<Hex, PackedOp[]>();
const MAX_CACHED_BUNDLES = 1_000;

export function userOpHashFor(
  transaction: { hash: Hex; to: Address | null; input: Hex },
  sender: Address,
  entryPoint: Address,
  chainId: number,
): Hex | null {
  if (!transaction.to || !isAddressEqual(transaction.to, entryPoint)) return null;
  const ops = bundleOps(transaction.hash, transaction.input);
  // Alto puts one operation per sender in a bundle, so the sender identifies the operation.
  const op = ops.find((candidate) => isAddressEqual(candidate.sender, sender));
  return op ? userOpHash(op, entryPoint, chainId) : null;
}

function bundleOps(hash: Hex, input: Hex): PackedOp[] {
  const cached = decoded.get(hash);
  if (cached) return cached;
  let ops: PackedOp[] = [];
  try {
    const call = decodeFunctionData({ abi: EntryPointAbi, data: input });
    if (call.functionName === "handleOps") ops = [...call.args[0]] as PackedOp[];
  } catch {
    // Not a bundle this indexer understands (e.g. handleAggregatedOps): no user operation hash.
  }
  if (decoded.size >= MAX_CACHED_BUNDLES) decoded.delete(decoded.keys().next().value!);
  decoded.set(hash, ops);
  return ops;
}

/** EntryPoint v0.7 getUserOpHash. */
export function userOpHash(op: PackedOp, entryPoint: Address, chainId: number): Hex {
  const packed = encodeAbiParameters(
    [
      { type: "address" },
      { type: "uint256" },
      { type: "bytes32" },
      { type: "bytes32" },
      { type: "bytes32" },
      { type: "uint256" },
      { type: "bytes32" },
      { type: "bytes32" },
    ],
    [
      op.sender,
      op.nonce,
      keccak256(op.initCode),
      keccak256(op.callData),
      op.accountGasLimits,
      op.preVerificationGas,
      op.gasFees,
      keccak256(op.paymasterAndData),
    ],
  );
  return keccak256(
    encodeAbiParameters(
      [{ type: "bytes32" }, { type: "address" }, { type: "uint256" }],
      [keccak256(packed), entryPoint, BigInt(chainId)],
    ),
  );
}
