// The agent registry as the API's writes see it: who is registered (read from the chain, never from
// the index, so that a registration the indexer has not seen yet still counts) and the calls of a
// registration and a status change, for a sponsored user operation to carry.
import { type Address, encodeFunctionData, zeroAddress } from "viem";
import { AgentRegistryAbi } from "../../abis";
import type { ChainAccess } from "./access";
import type { Call } from "./sendUserOperation";

export type RegisteredAgent = { vault: Address; house: boolean; active: boolean };

/** The agent whose account is `manager`, or undefined when it is not registered. */
export async function registeredAgent(chain: ChainAccess, manager: Address): Promise<RegisteredAgent | undefined> {
  const [vault, house, active] = await chain.publicClient.readContract({
    address: chain.deployment.contracts.agentRegistry,
    abi: AgentRegistryAbi,
    functionName: "agents",
    args: [manager],
  });
  return vault === zeroAddress ? undefined : { vault, house, active };
}

/** Where `manager`'s vault is, or will be once registered (a CREATE2 address). */
export function vaultAddress(chain: ChainAccess, manager: Address): Promise<Address> {
  return chain.publicClient.readContract({
    address: chain.deployment.contracts.agentRegistry,
    abi: AgentRegistryAbi,
    functionName: "vaultAddress",
    args: [manager],
  });
}

export type Registration = {
  manager: Address;
  name: string;
  persona: string;
  strategy: string;
  feeBps: number;
  lockupSeconds: number;
};

/** The call of a self-registration: sent from `manager`'s own account, so never a house agent. */
export const registerCall = (chain: ChainAccess, registration: Registration): Call => ({
  to: chain.deployment.contracts.agentRegistry,
  data: encodeFunctionData({
    abi: AgentRegistryAbi,
    functionName: "register",
    args: [
      registration.manager,
      registration.name,
      registration.persona,
      registration.strategy,
      false,
      BigInt(registration.feeBps),
      BigInt(registration.lockupSeconds),
    ],
  }),
});

export const setActiveCall = (chain: ChainAccess, manager: Address, active: boolean): Call => ({
  to: chain.deployment.contracts.agentRegistry,
  data: encodeFunctionData({ abi: AgentRegistryAbi, functionName: "setActive", args: [manager, active] }),
});
