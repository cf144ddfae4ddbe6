// Agents, feed entries, bonds and positions as the API shows them, from the indexed records:
// amounts in decimal USDC, times in ISO 8601, an agent's id its manager address in lowercase.
import { getAddress } from "viem";
import { usdcNumber } from "../../constants";
import type { AgentRecord, BondRecord, FeedRow, HeldMarketRecord, VaultBook } from "../db/agents";
import { abbreviate, isoFromSeconds } from "../format";
import { agentStats, holdingOf, type PositionLine } from "./stats";
import { bondValue, netAssetValue, outcomeValue } from "./valuation";

const navOf = (book: VaultBook) => netAssetValue(book.cash, book.markets.map(holdingOf));

/** An Agent of the house listing: the roster's fields but createdAt. */
export function houseAgentView(record: AgentRecord) {
  return {
    id: record.manager,
    name: record.name,
    persona: record.persona,
    strategy: record.strategy,
    status: record.active ? ("active" as const) : ("inactive" as const),
    walletAddress: abbreviate(record.manager),
    stats: agentStats(record.activity),
    vaultAddress: getAddress(record.vault),
    house: record.house,
    feeBps: record.fee_bps,
    lockupSeconds: Number(record.lockup_seconds),
    netAssetValue: usdcNumber(navOf(record.book)),
  };
}

export const agentView = (record: AgentRecord) => ({
  ...houseAgentView(record),
  createdAt: isoFromSeconds(record.created_at),
});

/** Lines worth showing as held: tokens left, except losing tokens of a resolved market (worth 0 for good). */
const isOpen = (held: HeldMarketRecord, line: PositionLine) =>
  line.tokens > 0n && (held.market.status !== "resolved" || line.outcome === held.market.resolvedOutcome);

export function agentDetailView(record: AgentRecord) {
  return {
    ...agentView(record),
    cash: usdcNumber(record.book.cash),
    totalShares: usdcNumber(record.total_shares),
    bonded: usdcNumber(record.bonded),
    unbonded: usdcNumber(record.unbonded),
    feesPaid: usdcNumber(record.fees_paid),
    openPositions: record.book.markets.flatMap((held) =>
      held.positions
        .filter((line) => isOpen(held, line))
        .map((line) => ({
          marketSlug: held.slug,
          outcome: held.outcomes[line.outcome] ?? String(line.outcome),
          tokens: usdcNumber(line.tokens),
          value: usdcNumber(outcomeValue(held.market, line.outcome, line.tokens)),
        })),
    ),
  };
}

export function feedEntryView(row: FeedRow) {
  return {
    id: row.id,
    agentId: row.agent_id,
    agentName: row.agent_name,
    marketSlug: row.slug,
    action: row.action,
    outcome: row.outcome,
    amount: usdcNumber(row.amount),
    tokens: usdcNumber(row.tokens),
    reasoning: row.reasoning ?? "",
    confidence: row.confidence,
    priceAtDecision: row.price_at_decision,
    timestamp: isoFromSeconds(row.timestamp),
    txHash: row.tx_hash,
    txId: row.user_op_hash ?? row.tx_hash,
  };
}

/**
 * A live bond: `currentValue` is AgentVault.bondValue at the indexed prices; `liquidationValue` the
 * vault's own quote of a full unbond (null when the chain did not answer).
 */
export function bondEntryView(record: BondRecord, liquidation: { usdcPaid: bigint } | null) {
  const shares = BigInt(record.shares);
  const totalShares = BigInt(record.total_shares);
  const principal = BigInt(record.principal);
  const { value } = bondValue({
    nav: navOf(record.book),
    shares,
    totalShares,
    highWater: BigInt(record.high_water),
    feeBps: record.fee_bps,
  });
  const bondedAt = Number(record.bonded_at);
  return {
    bondId: record.id,
    agentId: record.agent,
    agentName: record.agent_name,
    staker: abbreviate(record.staker),
    stakerAddress: getAddress(record.staker),
    amountStaked: usdcNumber(principal),
    shares: usdcNumber(shares),
    sharePercent: totalShares === 0n ? 0 : Number(shares) / Number(totalShares),
    currentValue: usdcNumber(value),
    unrealizedPnl: usdcNumber(value - principal),
    liquidationValue: liquidation === null ? null : usdcNumber(liquidation.usdcPaid),
    lockupUntil: isoFromSeconds(bondedAt + Number(record.lockup_seconds)),
    bondedAt: isoFromSeconds(bondedAt),
  };
}

/** A holder's positions in one market, each valued as the vault would value it, at the indexed prices. */
export const marketPositionViews = (held: HeldMarketRecord) =>
  held.positions
    .filter((line) => line.tokens > 0n || line.realizedPnl !== 0n)
    .map((line) => {
      const value = outcomeValue(held.market, line.outcome, line.tokens);
      return {
        marketSlug: held.slug,
        outcome: held.outcomes[line.outcome] ?? String(line.outcome),
        tokens: usdcNumber(line.tokens),
        costBasis: usdcNumber(line.costBasis),
        value: usdcNumber(value),
        unrealizedPnl: usdcNumber(value - line.costBasis),
        realizedPnl: usdcNumber(line.realizedPnl),
      };
    });
