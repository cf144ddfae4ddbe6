// An agent's vault as the API's writes see it: its bonds, lockup and open positions read from the
// chain, the unbond quote, and the calls of a bond, an unbond and the manager's trades, for a
// sponsored user operation to carry.
import { type Address, encodeFunctionData, type Hex } from "viem";
import { AgentVaultAbi, TestUSDCAbi } from "../../abis";
import type { ChainAccess } from "./access";
import type { Call } from "./sendUserOperation";

export type VaultBond = {
  /** The zero address when the vault has no bond of this id. */
  staker: Address;
  /** Unix seconds. */
  bondedAt: bigint;
  shares: bigint;
  principal: bigint;
  highWater: bigint;
};

export async function vaultBond(chain: ChainAccess, vault: Address, bondId: bigint): Promise<VaultBond> {
  const [staker, bondedAt, shares, principal, highWater] = await chain.publicClient.readContract({
    address: vault,
    abi: AgentVaultAbi,
    functionName: "bonds",
    args: [bondId],
  });
  return { staker, bondedAt, shares, principal, highWater };
}

/** Seconds after bonding before a bond may be unbonded, fixed at the agent's registration. */
export async function lockupSeconds(chain: ChainAccess, vault: Address): Promise<bigint> {
  return BigInt(
    await chain.publicClient.readContract({ address: vault, abi: AgentVaultAbi, functionName: "lockupSeconds" }),
  );
}

/**
 * Whether the vault may buy in `market`: it already holds a position there, or it holds positions in
 * fewer markets than its cap (the contract reverts TooManyPositions otherwise).
 */
export async function mayOpenPosition(chain: ChainAccess, vault: Address, market: Address): Promise<boolean> {
  const read = { address: vault, abi: AgentVaultAbi } as const;
  const [open, markets, cap] = await Promise.all([
    chain.publicClient.readContract({ ...read, functionName: "isOpen", args: [market] }),
    chain.publicClient.readContract({ ...read, functionName: "openMarkets" }),
    chain.publicClient.readContract({ ...read, functionName: "MAX_POSITIONS" }),
  ]);
  return open || BigInt(markets.length) < cap;
}

/** The calls of a bond: approve exactly `units` to the vault, which pulls them in `bond`. */
export const bondCalls = (chain: ChainAccess, vault: Address, units: bigint): Call[] => [
  {
    to: chain.deployment.contracts.usdc,
    data: encodeFunctionData({ abi: TestUSDCAbi, functionName: "approve", args: [vault, units] }),
  },
  { to: vault, data: encodeFunctionData({ abi: AgentVaultAbi, functionName: "bond", args: [units] }) },
];

export const unbondCall = (vault: Address, bondId: bigint, shares: bigint): Call => ({
  to: vault,
  data: encodeFunctionData({ abi: AgentVaultAbi, functionName: "unbond", args: [bondId, shares] }),
});

/** The manager's trades name a market by its id, keccak256 of its slug, as the MarketFactory does. */
export const vaultBuyCall = (
  vault: Address,
  marketId: Hex,
  outcome: number,
  usdcUnits: bigint,
  minTokensOut: bigint,
): Call => ({
  to: vault,
  data: encodeFunctionData({
    abi: AgentVaultAbi,
    functionName: "buy",
    args: [marketId, BigInt(outcome), usdcUnits, minTokensOut],
  }),
});

export const vaultSellCall = (
  vault: Address,
  marketId: Hex,
  outcome: number,
  tokenUnits: bigint,
  minUsdcOut: bigint,
): Call => ({
  to: vault,
  data: encodeFunctionData({
    abi: AgentVaultAbi,
    functionName: "sell",
    args: [marketId, BigInt(outcome), tokenUnits, minUsdcOut],
  }),
});

export const vaultClaimCall = (vault: Address, marketId: Hex): Call => ({
  to: vault,
  data: encodeFunctionData({ abi: AgentVaultAbi, functionName: "claim", args: [marketId] }),
});
