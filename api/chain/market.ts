// A market contract as traders see it: quotes and balances read from the chain, and the calls of
// a buy, a sell and a claim, for a sponsored user operation to carry.
import { type Address, encodeFunctionData, maxUint256 } from "viem";
import { MarketAbi, TestUSDCAbi } from "../../abis";
import type { ChainAccess } from "./access";
import type { Call } from "./sendUserOperation";

export async function quoteBuy(chain: ChainAccess, market: Address, outcome: number, usdcUnits: bigint) {
  const [tokensOut, fee] = await chain.publicClient.readContract({
    address: market,
    abi: MarketAbi,
    functionName: "quoteBuy",
    args: [BigInt(outcome), usdcUnits],
  });
  return { tokensOut, fee };
}

export async function quoteSell(chain: ChainAccess, market: Address, outcome: number, tokenUnits: bigint) {
  const [usdcOut, fee] = await chain.publicClient.readContract({
    address: market,
    abi: MarketAbi,
    functionName: "quoteSell",
    args: [BigInt(outcome), tokenUnits],
  });
  return { usdcOut, fee };
}

export async function outcomeBalance(chain: ChainAccess, market: Address, holder: Address, outcome: number) {
  return chain.publicClient.readContract({
    address: market,
    abi: MarketAbi,
    functionName: "balanceOf",
    args: [holder, BigInt(outcome)],
  });
}

/**
 * The calls of a buy: an approval only when the allowance is short, then the buy. The approval is
 * unlimited for this one market contract, so that concurrent buys of the same user never race on
 * the allowance.
 */
export async function buyCalls(
  chain: ChainAccess,
  parameters: { owner: Address; market: Address; outcome: number; usdcUnits: bigint; minTokensOut: bigint },
): Promise<Call[]> {
  const { owner, market, outcome, usdcUnits, minTokensOut } = parameters;
  const usdc = chain.deployment.contracts.usdc;
  const allowance = await chain.publicClient.readContract({
    address: usdc,
    abi: TestUSDCAbi,
    functionName: "allowance",
    args: [owner, market],
  });
  const buy = {
    to: market,
    data: encodeFunctionData({ abi: MarketAbi, functionName: "buy", args: [BigInt(outcome), usdcUnits, minTokensOut] }),
  };
  if (allowance >= usdcUnits) return [buy];
  return [
    { to: usdc, data: encodeFunctionData({ abi: TestUSDCAbi, functionName: "approve", args: [market, maxUint256] }) },
    buy,
  ];
}

export const sellCalls = (market: Address, outcome: number, tokenUnits: bigint, minUsdcOut: bigint): Call[] => [
  {
    to: market,
    data: encodeFunctionData({ abi: MarketAbi, functionName: "sell", args: [BigInt(outcome), tokenUnits, minUsdcOut] }),
  },
];

export const claimCalls = (market: Address): Call[] => [
  { to: market, data: encodeFunctionData({ abi: MarketAbi, functionName: "claim" }) },
];
