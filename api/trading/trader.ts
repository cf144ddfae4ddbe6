// Who trades what: the caller's wallet and owner key, the account the trade moves (the wallet, or an
// agent's vault), and the market's contract, loaded once per trade. Every trade and claim starts
// here, so its 404s and 503s read the same everywhere.
import type { Address, Hex } from "viem";
import { type AgentTradeFields, type TradingAccount, tradingAccount } from "../agents/vaultTrade";
import type { ChainAccess } from "../chain/access";
import { ownerKeyFor } from "../chain/walletKeys";
import type { MarketRow } from "../db/markets";
import type { AppEnv } from "../http/env";
import { chainUnavailable, marketNotFound, walletNotFound } from "../http/errors";
import type { WriteContext } from "../writes/sponsoredWrite";

/** What a trade needs of the request's context: `c.var` fits. */
export type TradeContext = WriteContext & Pick<AppEnv["Variables"], "user">;

export type Trader = {
  chain: ChainAccess;
  market: MarketRow;
  /** The market's contract (markets without one are 404 here). */
  marketAddress: Address;
  /** The caller's smart account, which signs the user operation (an agent's id). */
  wallet: Address;
  ownerKey: Hex;
  /** Whose USDC and tokens the trade moves: the wallet, or the agent's vault. */
  account: TradingAccount;
};

export async function loadTrader(
  context: TradeContext,
  request: { marketSlug: string } & AgentTradeFields,
): Promise<Trader> {
  const { chain, config, db, user } = context;
  const masterKey = config.WALLET_MASTER_KEY;
  if (!chain || !masterKey) throw chainUnavailable();
  const market = await db.markets.bySlug(request.marketSlug);
  if (!market?.contract_address) throw marketNotFound();
  const wallet = await db.wallets.find(user.id);
  if (!wallet) throw walletNotFound();
  return {
    chain,
    market,
    marketAddress: market.contract_address as Address,
    wallet: wallet.address as Address,
    ownerKey: ownerKeyFor(masterKey, user.id),
    account: await tradingAccount(chain, user, wallet.address as Address, request),
  };
}
