// An unbond: the staker redeems shares of a bond once its lockup has passed, and the vault pays their
// fraction of its cash plus what selling the same fraction of its positions fetches (see AgentVault).
// The answer carries the contract's own quote of that payment at the time of sending.
import { type Address, zeroAddress } from "viem";
import { toUsdcUnits, usdcNumber } from "../../constants";
import { quoteUnbondAt } from "../chain/agentQuotes";
import { lockupSeconds, unbondCall, vaultBond } from "../chain/agentVault";
import { isoFromSeconds } from "../format";
import { ApiError, badRequest, chainUnavailable } from "../http/errors";
import { sponsoredWrite } from "../writes/sponsoredWrite";
import { type AgentWriteContext, agentIdOf, loadCaller } from "./caller";

export type UnbondParameters = {
  /** Shares to redeem as a 6-decimal number (1 share unit = 1e-6); every share of the bond when absent. */
  shares?: number;
};

const bondNotFound = () => new ApiError(404, "bond_not_found", "no bond with this id");

export async function unbondShares(context: AgentWriteContext, bondId: bigint, request: UnbondParameters) {
  const { chain, account, ownerKey } = await loadCaller(context);
  const indexed = await context.db.bondVaults.vaultOf(bondId);
  if (!indexed) throw bondNotFound();
  const vault = indexed.vault as Address;
  const [bond, lockup, latest] = await Promise.all([
    vaultBond(chain, vault, bondId),
    lockupSeconds(chain, vault),
    chain.publicClient.getBlock(),
  ]);
  // Indexed but not on chain: a bond the index still holds from a block since reorganised away.
  if (bond.staker === zeroAddress) throw bondNotFound();
  if (agentIdOf(bond.staker) !== agentIdOf(account))
    throw new ApiError(403, "not_staker", "only the staker of this bond may unbond it");
  if (bond.shares === 0n) throw new ApiError(409, "bond_closed", "the bond has no shares left");
  const shares = request.shares === undefined ? bond.shares : toUsdcUnits(request.shares);
  if (shares > bond.shares) throw badRequest("shares", `the bond holds ${usdcNumber(bond.shares)} shares`);
  // The contract compares with the block's time, which the chain sets (and tests move): not this clock.
  const lockupUntil = bond.bondedAt + lockup;
  if (latest.timestamp < lockupUntil)
    throw new ApiError(409, "bond_locked", `the bond is locked until ${isoFromSeconds(lockupUntil)}`, {
      lockupUntil: isoFromSeconds(lockupUntil),
    });
  const quote = await quoteUnbondAt(chain, { vault, bondId, shares });
  if (!quote) throw chainUnavailable("the vault did not quote this unbond");
  return sponsoredWrite(context, {
    userId: context.user.id,
    kind: "unbond",
    request: { bondId: bondId.toString(), ...request },
    calls: [unbondCall(vault, bondId, shares)],
    ownerKey,
    answer: ({ txId, txHash }) => ({
      txId,
      txHash,
      status: "pending" as const,
      bondId: bondId.toString(),
      agentId: indexed.agent.toLowerCase(),
      shares: usdcNumber(shares),
      quotedUsdc: usdcNumber(quote.usdcPaid),
      quotedFee: usdcNumber(quote.fee),
    }),
  });
}
