// Agents trade from their vault: which account a trade comes from, the vault's calls, and the
// decision (reasoning, confidence, price when deciding) kept with each of an agent's trades for the
// feed. Agents are users whose token has the role `agent`; their vault is the one the registry holds
// for their smart account.
import type { Address, Hex } from "viem";
import type { ChainAccess } from "../chain/access";
import { registeredAgent } from "../chain/agentRegistry";
import { mayOpenPosition, vaultBuyCall } from "../chain/agentVault";
import type { Call } from "../chain/sendUserOperation";
import type { AgentAction } from "../db/agentDecisions";
import type { AppEnv } from "../http/env";
import { ApiError, badRequest } from "../http/errors";
import type { TradeContext, Trader } from "../trading/trader";
import { isAgent } from "./caller";

export type AccountChoice = "vault" | "wallet";

/** What a trade request may add for agents. */
export type AgentTradeFields = { account?: AccountChoice; reasoning?: string; confidence?: number };

/** The account whose USDC and tokens a trade moves: the caller's smart account, or its agent's vault. */
export type TradingAccount = { kind: AccountChoice; address: Address };

/**
 * An agent trades from its vault unless it asks for its wallet, or has no vault yet and did not ask
 * for one (409 then). Anyone else trades from the wallet and may send neither `account: "vault"`
 * nor a reasoning or confidence (400 naming it).
 */
export async function tradingAccount(
  chain: ChainAccess,
  user: AppEnv["Variables"]["user"],
  wallet: Address,
  request: AgentTradeFields,
): Promise<TradingAccount> {
  if (!isAgent(user)) {
    if (request.account === "vault") throw badRequest("account", "only agents (role agent) trade from a vault");
    if (request.reasoning !== undefined) throw badRequest("reasoning", "only agents' trades carry a reasoning");
    if (request.confidence !== undefined) throw badRequest("confidence", "only agents' trades carry a confidence");
  }
  if (request.account === "wallet" || !isAgent(user)) return { kind: "wallet", address: wallet };
  const agent = await registeredAgent(chain, wallet);
  if (agent) return { kind: "vault", address: agent.vault };
  if (request.account === "vault")
    throw new ApiError(409, "agent_not_registered", "this agent has no vault yet; register it with POST /api/agents");
  return { kind: "wallet", address: wallet };
}

/** The vault's buy: the vault approves the market itself; a market it holds nothing of needs a free slot. */
export async function vaultBuyCalls(
  trader: Trader,
  outcome: number,
  usdcUnits: bigint,
  minTokensOut: bigint,
): Promise<Call[]> {
  if (!(await mayOpenPosition(trader.chain, trader.account.address, trader.marketAddress)))
    throw new ApiError(409, "too_many_positions", "the vault holds positions in as many markets as it may");
  return [vaultBuyCall(trader.account.address, trader.market.id as Hex, outcome, usdcUnits, minTokensOut)];
}

/**
 * What to record before an agent's trade is sent (sponsoredWrite's beforeSend): every vault trade,
 * and a wallet trade of an agent that sent a reasoning or a confidence. The feed lists vault trades
 * only; a wallet trade's decision is kept, not shown. Nothing for anyone else's trades.
 */
export function recordDecision(
  context: TradeContext,
  trader: Trader,
  decision: AgentTradeFields & { action: AgentAction; outcome: number | null; amount: bigint | null },
): ((txId: Hex) => Promise<void>) | undefined {
  const said = decision.reasoning !== undefined || decision.confidence !== undefined;
  if (trader.account.kind === "wallet" && !(isAgent(context.user) && said)) return undefined;
  const price = decision.outcome === null ? null : (trader.market.prices?.[decision.outcome] ?? null);
  return (txId) =>
    context.db.agentDecisions.record({
      userOpHash: txId,
      userId: context.user.id,
      agent: trader.wallet,
      marketSlug: trader.market.slug,
      action: decision.action,
      outcome: decision.outcome,
      amount: decision.amount,
      reasoning: decision.reasoning ?? "",
      confidence: decision.confidence ?? null,
      priceAtDecision: price,
    });
}
