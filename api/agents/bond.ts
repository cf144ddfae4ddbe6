// A bond: USDC from the caller's smart account into an agent's vault, for shares at the vault's net
// asset value per share, as one user operation (approve exactly the amount, then bond).
import type { Address } from "viem";
import { toUsdcUnits } from "../../constants";
import { registeredAgent } from "../chain/agentRegistry";
import { bondCalls } from "../chain/agentVault";
import { usdcBalance } from "../chain/usdc";
import { ApiError, agentNotFound, badRequest } from "../http/errors";
import { sponsoredWrite } from "../writes/sponsoredWrite";
import { type AgentWriteContext, agentIdOf, loadCaller } from "./caller";

export type BondParameters = { amount: number };

export async function bondAgent(context: AgentWriteContext, agentId: Address, request: BondParameters) {
  const { chain, account, ownerKey } = await loadCaller(context);
  const agent = await registeredAgent(chain, agentId);
  if (!agent) throw agentNotFound();
  if (!agent.active) throw new ApiError(409, "agent_inactive", "the agent is inactive and accepts no new bonds");
  const units = toUsdcUnits(request.amount);
  if ((await usdcBalance(chain, account)).units < units) throw badRequest("amount", "not enough USDC in the wallet");
  return sponsoredWrite(context, {
    userId: context.user.id,
    kind: "bond",
    request: { agentId: agentIdOf(agentId), ...request },
    calls: bondCalls(chain, agent.vault, units),
    ownerKey,
    answer: ({ txId, txHash }) => ({
      txId,
      txHash,
      status: "pending" as const,
      agentId: agentIdOf(agentId),
      vaultAddress: agent.vault,
      amount: request.amount,
    }),
  });
}
