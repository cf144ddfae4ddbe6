// Bonds as served: valued from the indexed books, each with the vault's own quote of a full unbond at
// the indexed block, so that currentValue and liquidationValue describe the same chain state.
import type { Address } from "viem";
import type { ChainAccess } from "../chain/access";
import { quoteUnbondAt } from "../chain/agentQuotes";
import type { BondRecord } from "../db/agents";
import { bondEntryView } from "./view";

/** Without chain access (an API run without RPC_URL) every liquidationValue is null. */
export function bondEntries(chain: ChainAccess | undefined, bonds: BondRecord[], asOf: number) {
  return Promise.all(
    bonds.map(async (bond) => {
      const quote = chain
        ? await quoteUnbondAt(chain, {
            vault: bond.vault as Address,
            bondId: BigInt(bond.id),
            shares: BigInt(bond.shares),
            blockNumber: BigInt(asOf),
          })
        : null;
      return bondEntryView(bond, quote);
    }),
  );
}
