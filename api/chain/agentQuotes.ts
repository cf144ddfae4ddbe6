// What an unbond would pay, asked of the vault itself: quoteUnbond runs the whole unbond (claims,
// sales at the markets' curves, fee) in an eth_call and reverts with UnbondQuote(usdcPaid, fee), so
// the answer is the contract's own, lockup and caller aside.
import { type Address, BaseError, decodeErrorResult, encodeFunctionData, type Hex } from "viem";
import { AgentVaultAbi } from "../../abis";
import type { ChainAccess } from "./access";

export type UnbondQuote = { usdcPaid: bigint; fee: bigint };

export type QuoteUnbondParameters = {
  vault: Address;
  bondId: bigint;
  shares: bigint;
  /** The block to quote at (the indexed block, so that the quote matches the indexed figures). */
  blockNumber?: bigint;
};

/**
 * The vault's quote for unbonding `shares` of a bond, or null when the chain does not answer (or
 * answers anything but a quote, e.g. at a block it no longer keeps).
 *
 * @example
 * const quote = await quoteUnbondAt(chain, { vault, bondId: 3n, shares: 100_000_000n, blockNumber: 812n });
 */
export async function quoteUnbondAt(
  chain: ChainAccess,
  { vault, bondId, shares, blockNumber }: QuoteUnbondParameters,
): Promise<UnbondQuote | null> {
  const data = encodeFunctionData({ abi: AgentVaultAbi, functionName: "quoteUnbond", args: [bondId, shares] });
  try {
    await chain.publicClient.call({ to: vault, data, blockNumber });
    return null;
  } catch (error) {
    const revert = revertData(error);
    if (!revert) return null;
    try {
      const decoded = decodeErrorResult({ abi: AgentVaultAbi, data: revert });
      if (decoded.errorName !== "UnbondQuote") return null;
      const [usdcPaid, fee] = decoded.args as readonly [bigint, bigint];
      return { usdcPaid, fee };
    } catch {
      return null;
    }
  }
}

/** The revert data under a failed call, if the node returned any. */
function revertData(error: unknown): Hex | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const withData = error.walk((cause) => typeof (cause as { data?: unknown }).data === "string");
  return (withData as { data?: Hex } | null)?.data;
}
