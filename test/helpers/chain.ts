// Driving the local chain from tests: unlocked senders, funding, and blocks full of trades.
import { type Address, encodeFunctionData, type Hex, maxUint256 } from "viem";
import { MarketAbi, TestUSDCAbi } from "../../abis";
import type { Deployment } from "../../deployments/schema";

/** `gas` only where a call needs more than TX_GAS (an agent vault's unbond sells in every market). */
export type Tx = { from: Address; to: Address; data: Hex; gas?: Hex };

export const TX_GAS = "0x493e0";

export function chainDriver(rpcUrl: string, deployment: Deployment) {
  let id = 0;
  const rpc = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
    });
    const body = (await response.json()) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result as T;
  };
  // A tight gas limit: anvil packs blocks by declared limits, so 2M each would fit 15 to a block.
  const send = (tx: Tx) => rpc<Hex>("eth_sendTransaction", [{ gas: TX_GAS, ...tx }]);
  const receipt = (hash: Hex) => rpc<{ status: Hex; blockNumber: Hex } | null>("eth_getTransactionReceipt", [hash]);
  const operator = deployment.roles.operator;
  const usdc = deployment.contracts.usdc;

  /**
   * Sends the transactions with automine off and mines them together: one block, or the next few
   * when they exceed the block gas limit. `concurrent` sends them all at once (faster; the order
   * within the block is then the order of arrival).
   */
  async function mineBlock(txs: Tx[], options: { concurrent?: boolean } = {}): Promise<{ hash: Hex; ok: boolean }[]> {
    await rpc("evm_setAutomine", [false]);
    let hashes: Hex[] = [];
    let receipts: Awaited<ReturnType<typeof receipt>>[] = [];
    try {
      if (options.concurrent) hashes = await Promise.all(txs.map(send));
      else for (const tx of txs) hashes.push(await send(tx));
      do {
        await rpc("evm_mine");
        receipts = await Promise.all(hashes.map(receipt));
      } while (receipts.some((r) => r === null));
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
    return hashes.map((hash, i) => ({ hash, ok: receipts[i]?.status === "0x1" }));
  }

  return {
    rpc,
    mineBlock,
    blockNumber: async () => Number(await rpc<Hex>("eth_blockNumber")),

    /** Unlocked accounts with ETH, `usdcEach` test USDC and unlimited allowances to `markets`. */
    async fundTraders(traders: Address[], usdcEach: bigint, markets: Address[]) {
      for (const trader of traders) {
        await rpc("anvil_impersonateAccount", [trader]);
        await rpc("anvil_setBalance", [trader, "0x56BC75E2D63100000"]);
      }
      const mints = traders.map((trader) => ({
        from: operator,
        to: usdc,
        data: encodeFunctionData({ abi: TestUSDCAbi, functionName: "mint", args: [trader, usdcEach] }),
      }));
      const approvals = traders.flatMap((trader) =>
        markets.map((market) => ({
          from: trader,
          to: usdc,
          data: encodeFunctionData({ abi: TestUSDCAbi, functionName: "approve", args: [market, maxUint256] }),
        })),
      );
      const results = await mineBlock([...mints, ...approvals]);
      if (results.some((r) => !r.ok)) throw new Error("funding failed");
    },

    buy: (trader: Address, market: Address, outcome: number, usdcAmount: bigint): Tx => ({
      from: trader,
      to: market,
      data: encodeFunctionData({ abi: MarketAbi, functionName: "buy", args: [BigInt(outcome), usdcAmount, 0n] }),
    }),
    sell: (trader: Address, market: Address, outcome: number, tokens: bigint): Tx => ({
      from: trader,
      to: market,
      data: encodeFunctionData({ abi: MarketAbi, functionName: "sell", args: [BigInt(outcome), tokens, 0n] }),
    }),
    transferTokens: (from: Address, to: Address, market: Address, outcome: number, tokens: bigint): Tx => ({
      from,
      to: market,
      data: encodeFunctionData({
        abi: MarketAbi,
        functionName: "safeTransferFrom",
        args: [from, to, BigInt(outcome), tokens, "0x"],
      }),
    }),
    claim: (holder: Address, market: Address): Tx => ({
      from: holder,
      to: market,
      data: encodeFunctionData({ abi: MarketAbi, functionName: "claim" }),
    }),
    lifecycle: (market: Address, action: "close" | "void" | { resolve: number }): Tx => ({
      from: operator,
      to: market,
      data:
        action === "close"
          ? encodeFunctionData({ abi: MarketAbi, functionName: "close" })
          : action === "void"
            ? encodeFunctionData({ abi: MarketAbi, functionName: "void" })
            : encodeFunctionData({ abi: MarketAbi, functionName: "resolve", args: [BigInt(action.resolve)] }),
    }),
  };
}

export type ChainDriver = ReturnType<typeof chainDriver>;

/** A small deterministic PRNG so that a failing scenario can be replayed. */
export function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (max: number) => Math.floor(next() * max),
    pick: <T>(items: T[]) => items[Math.floor(next() * items.length)]!,
  };
}
