// Registering an agent: the caller's smart account registers itself with the registry, which deploys
// its vault. The account may not be deployed yet: its first user operation deploys it, as for trades.
import { type Registration, registerCall, registeredAgent, vaultAddress } from "../chain/agentRegistry";
import { ApiError } from "../http/errors";
import { sponsoredWrite } from "../writes/sponsoredWrite";
import { type AgentWriteContext, agentIdOf, isAgent, loadCaller } from "./caller";

export type RegisterParameters = Omit<Registration, "manager">;

export async function registerAgent(context: AgentWriteContext, request: RegisterParameters) {
  if (!isAgent(context.user)) throw new ApiError(403, "forbidden", "registering an agent needs the role agent");
  const { chain, account, ownerKey } = await loadCaller(context);
  // The chain, not the index, says who is registered: a registration not indexed yet still counts.
  if (await registeredAgent(chain, account))
    throw new ApiError(409, "agent_exists", "this account is already registered as an agent", {
      agentId: agentIdOf(account),
    });
  const vault = await vaultAddress(chain, account);
  return sponsoredWrite(context, {
    userId: context.user.id,
    kind: "agent_register",
    request,
    calls: [registerCall(chain, { manager: account, ...request })],
    ownerKey,
    answer: ({ txId, txHash }) => ({
      txId,
      txHash,
      status: "pending" as const,
      agentId: agentIdOf(account),
      vaultAddress: vault,
      name: request.name,
      feeBps: request.feeBps,
      lockupSeconds: request.lockupSeconds,
    }),
  });
}
