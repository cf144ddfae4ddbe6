import { type Address, encodeFunctionData, type Hex } from "viem";
import { TestUSDCAbi } from "../../abis";
import { usdcString } from "../../constants";
import type { ChainAccess } from "./access";
import type { Call } from "./sendUserOperation";

export async function usdcBalance(chain: ChainAccess, holder: Address): Promise<{ units: bigint; decimal: string }> {
  const units = await chain.publicClient.readContract({
    address: chain.deployment.contracts.usdc,
    abi: TestUSDCAbi,
    functionName: "balanceOf",
    args: [holder],
  });
  return { units, decimal: usdcString(units) };
}

/** Test-network faucet: the operator mints and waits until the mint is mined. */
export async function mintUsdc(chain: ChainAccess, to: Address, units: bigint): Promise<Hex> {
  if (!chain.operator) throw new Error("no operator key configured");
  const operator = chain.operator;
  const hash = await chain.sendAsOperator(() =>
    operator.writeContract({
      address: chain.deployment.contracts.usdc,
      abi: TestUSDCAbi,
      functionName: "mint",
      args: [to, units],
    }),
  );
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, timeout: 30_000 });
  if (receipt.status !== "success") throw new Error(`mint ${hash} reverted`);
  return hash;
}

/** The call that moves `units` of USDC from the sending account to `to`. */
export function transferCall(chain: ChainAccess, to: Address, units: bigint): Call {
  return {
    to: chain.deployment.contracts.usdc,
    data: encodeFunctionData({ abi: TestUSDCAbi, functionName: "transfer", args: [to, units] }),
  };
}
