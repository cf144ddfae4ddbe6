// The operator's market transactions: deploy a draft through the factory, close, resolve, void.
import { type Address, BaseError, ContractFunctionRevertedError, type Hex } from "viem";
import { MarketAbi, MarketFactoryAbi } from "../../abis";
import type { ChainAccess } from "./access";

export class MarketRevertedError extends Error {
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`the contract refused: ${reason}`, options);
  }
}

const operatorOf = (chain: ChainAccess) => {
  if (!chain.operator) throw new Error("no operator key configured");
  return chain.operator;
};

export async function predictedMarketAddress(chain: ChainAccess, slug: string): Promise<Address> {
  return chain.publicClient.readContract({
    address: chain.deployment.contracts.marketFactory,
    abi: MarketFactoryAbi,
    functionName: "marketAddress",
    args: [slug],
  });
}

export async function deployMarket(
  chain: ChainAccess,
  draft: {
    slug: string;
    title: string;
    description: string;
    outcomes: string[];
    closesAt: Date;
    /** The LMSR parameter b in 6-decimal USDC units. */
    b: bigint;
    feeBps: number;
  },
): Promise<{ address: Address; txHash: Hex }> {
  const txHash = await send(chain, {
    address: chain.deployment.contracts.marketFactory,
    abi: MarketFactoryAbi,
    functionName: "createMarket",
    args: [
      draft.slug,
      draft.title,
      draft.description,
      draft.outcomes,
      BigInt(Math.floor(draft.closesAt.getTime() / 1000)),
      draft.b,
      BigInt(draft.feeBps),
    ],
  });
  return { address: await predictedMarketAddress(chain, draft.slug), txHash };
}

export async function settleMarket(
  chain: ChainAccess,
  market: Address,
  action: { resolve: number } | "void",
  closeFirst: boolean,
): Promise<Hex> {
  if (closeFirst) await send(chain, { address: market, abi: MarketAbi, functionName: "close" });
  return action === "void"
    ? send(chain, { address: market, abi: MarketAbi, functionName: "void" })
    : send(chain, { address: market, abi: MarketAbi, functionName: "resolve", args: [BigInt(action.resolve)] });
}

/** Simulates first, so that a refusal surfaces as its reason, then sends and waits until mined. */
async function send(
  chain: ChainAccess,
  call: {
    address: Address;
    abi: typeof MarketAbi | typeof MarketFactoryAbi;
    functionName: string;
    args?: readonly unknown[];
  },
): Promise<Hex> {
  const operator = operatorOf(chain);
  try {
    const { request } = await chain.publicClient.simulateContract({
      ...(call as object),
      account: operator.account,
    } as never);
    const hash = await chain.sendAsOperator(() => operator.writeContract(request as never));
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, timeout: 60_000 });
    if (receipt.status !== "success") throw new MarketRevertedError("reverted", { cause: hash });
    return hash;
  } catch (error) {
    if (error instanceof BaseError) {
      const revert = error.walk((e) => e instanceof ContractFunctionRevertedError);
      if (revert instanceof ContractFunctionRevertedError)
        throw new MarketRevertedError(revert.data?.errorName ?? revert.reason ?? "reverted", { cause: error });
    }
    throw error;
  }
}
