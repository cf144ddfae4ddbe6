// Who sends an agents write: the caller's smart account (the agent's id when the caller is an agent,
// the staker when it bonds) and its owner key, loaded once per request, so that every agents write
// answers a missing chain or wallet the same way trades do.
import type { Address, Hex } from "viem";
import type { ChainAccess } from "../chain/access";
import { ownerKeyFor } from "../chain/walletKeys";
import type { AppEnv } from "../http/env";
import { chainUnavailable, walletNotFound } from "../http/errors";
import type { WriteContext } from "../writes/sponsoredWrite";

/** What an agents write needs of the request's context: `c.var` fits. */
export type AgentWriteContext = WriteContext & Pick<AppEnv["Variables"], "user">;

export type Caller = { chain: ChainAccess; account: Address; ownerKey: Hex };

export async function loadCaller(context: AgentWriteContext): Promise<Caller> {
  const { chain, config, db, user } = context;
  const masterKey = config.WALLET_MASTER_KEY;
  if (!chain || !masterKey) throw chainUnavailable();
  const wallet = await db.wallets.find(user.id);
  if (!wallet) throw walletNotFound();
  return { chain, account: wallet.address as Address, ownerKey: ownerKeyFor(masterKey, user.id) };
}

/** An agent's id in the API: its account's address, lowercase. */
export const agentIdOf = (account: Address) => account.toLowerCase();

/** Users whose token carries the role `agent` are agents. */
export const isAgent = (user: AppEnv["Variables"]["user"]) => user.roles.includes("agent");
