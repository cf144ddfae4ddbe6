// The operator's transactions for house agents: registering a house user's smart account as an agent
// with the house flag (only the operator may set it), and bonding the house's seed capital into the
// agent's vault from the operator's own USDC. Each is simulated first, so that a refusal surfaces as
// its reason, sent through the operator's one-at-a-time queue and awaited until mined.
import { type Abi, type Address, BaseError, ContractFunctionRevertedError, type Hex } from "viem";
import { AgentRegistryAbi, AgentVaultAbi, TestUSDCAbi } from "../../abis";
import type { ChainAccess } from "./access";
import type { Registration } from "./agentRegistry";

/** A contract refused one of the operator's house-agent transactions; `reason` is its error's name. */
export class HouseAgentRevertedError extends Error {
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`the contract refused: ${reason}`, options);
  }
}

/** Registers `manager` as a house agent; the registry deploys its vault. */
export function registerHouseAgent(chain: ChainAccess, registration: Registration): Promise<Hex> {
  return send(chain, {
    address: chain.deployment.contracts.agentRegistry,
    abi: AgentRegistryAbi,
    functionName: "register",
    args: [
      registration.manager,
      registration.name,
      registration.persona,
      registration.strategy,
      true,
      BigInt(registration.feeBps),
      BigInt(registration.lockupSeconds),
    ],
  });
}

/** The vault's shares outstanding: 0 until its first bond. */
export function vaultShares(chain: ChainAccess, vault: Address): Promise<bigint> {
  return chain.publicClient.readContract({ address: vault, abi: AgentVaultAbi, functionName: "totalShares" });
}

/** Bonds `units` of the operator's USDC into `vault`: approve exactly that, then bond. */
export async function bondFromOperator(chain: ChainAccess, vault: Address, units: bigint): Promise<Hex> {
  await send(chain, {
    address: chain.deployment.contracts.usdc,
    abi: TestUSDCAbi,
    functionName: "approve",
    args: [vault, units],
  });
  return send(chain, { address: vault, abi: AgentVaultAbi, functionName: "bond", args: [units] });
}

async function send(
  chain: ChainAccess,
  call: { address: Address; abi: Abi; functionName: string; args: readonly unknown[] },
): Promise<Hex> {
  const operator = chain.operator;
  if (!operator) throw new Error("no operator key configured");
  try {
    const { request } = await chain.publicClient.simulateContract({ ...call, account: operator.account } as never);
    const hash = await chain.sendAsOperator(() => operator.writeContract(request as never));
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, timeout: 60_000 });
    if (receipt.status !== "success") throw new HouseAgentRevertedError("reverted", { cause: hash });
    return hash;
  } catch (error) {
    if (error instanceof BaseError) {
      const revert = error.walk((e) => e instanceof ContractFunctionRevertedError);
      if (revert instanceof ContractFunctionRevertedError)
        throw new HouseAgentRevertedError(revert.data?.errorName ?? revert.reason ?? "reverted", { cause: error });
    }
    throw error;
  }
}
