// Whose user operation a market log came from: a vault's trades and claims are sent by the agent's
// manager account (vault.buy/sell/claim are manager-only), everyone else's by the trader itself.
import type { ponder } from "ponder:registry";
import { agentVault } from "ponder:schema";
import { type Address, type Hex, isAddressEqual } from "viem";
import { userOpHashFor } from "./userOperations";

type Context = Parameters<Parameters<typeof ponder.on<"Market:Trade">>[1]>[0]["context"];

/**
 * The user operation hash of a Trade or Claimed log of `account`. The vault lookup is by primary
 * key and runs only for bundles, so direct trades cost nothing more. A vault's sales and claims
 * inside a staker's unbond have no manager operation in the bundle and stay null.
 */
export async function marketUserOpHash(
  context: Context,
  transaction: { hash: Hex; to: Address | null; input: Hex },
  account: Address,
): Promise<Hex | null> {
  const entryPoint = context.contracts.EntryPoint.address;
  if (!transaction.to || !isAddressEqual(transaction.to, entryPoint)) return null;
  const vault = await context.db.find(agentVault, { vault: account });
  return userOpHashFor(transaction, vault?.manager ?? account, entryPoint, context.chain.id);
}
