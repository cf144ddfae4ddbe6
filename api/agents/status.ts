// Opening or closing an agent to new bonds, by the agent itself: only its own account can sign the
// user operation (the operator may too, on chain, but not through a user's token).
import type { Address } from "viem";
import { registeredAgent, setActiveCall } from "../chain/agentRegistry";
import { ApiError, agentNotFound } from "../http/errors";
import { sponsoredWrite } from "../writes/sponsoredWrite";
import { type AgentWriteContext, agentIdOf, loadCaller } from "./caller";

export type StatusParameters = { active: boolean };

export async function setAgentStatus(context: AgentWriteContext, agentId: Address, request: StatusParameters) {
  const { chain, account, ownerKey } = await loadCaller(context);
  if (!(await registeredAgent(chain, agentId))) throw agentNotFound();
  if (agentIdOf(account) !== agentIdOf(agentId))
    throw new ApiError(403, "not_agent_manager", "only the agent itself may change its status");
  return sponsoredWrite(context, {
    userId: context.user.id,
    kind: "agent_status",
    request: { agentId: agentIdOf(agentId), ...request },
    calls: [setActiveCall(chain, account, request.active)],
    ownerKey,
    answer: ({ txId, txHash }) => ({
      txId,
      txHash,
      status: "pending" as const,
      agentId: agentIdOf(agentId),
      active: request.active,
    }),
  });
}
