import { formatUnits, type Address, type Hex } from "viem";
import { TestUSDCAbi } from "../../abis";
import type { ChainAccess } from "./access";

export const USDC_DECIMALS = 6;

export async function usdcBalance(chain: ChainAccess, holder: Address): Promise<{ units: bigint; decimal: string }> {
  const units = await chain.publicClient.readContract({
    address: chain.deployment.contracts.usdc,
    abi: TestUSDCAbi,
    functionName: "balanceOf",
    args: [holder],
  });
  return { units, decimal: formatUnits(units, USDC_DECIMALS) };
}

/** Test-network faucet: the operator mints and waits until the mint is mined. */
export async function mintUsdc(chain: ChainAccess, to: Address, units: bigint): Promise<Hex> {
  if (!chain.operator) throw new Error("no operator key configured");
  const hash = await chain.operator.writeContract({
    address: chain.deployment.contracts.usdc,
    abi: TestUSDCAbi,
    functionName: "mint",
    args: [to, units],
  });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, timeout: 30_000 });
  if (receipt.status !== "success") throw new Error(`mint ${hash} reverted`);
  return hash;
}
