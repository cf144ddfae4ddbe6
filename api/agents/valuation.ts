// An agent vault's worth, computed from indexed rows exactly as AgentVault computes it on chain
// (netAssetValue, positionValue, bondValue), in bigint units, so that a bond's `currentValue` equals
// the contract's bondValue(bondId).value to the unit at the indexed prices.
//
// Which markets count: the vault counts its open markets (bought into and not yet emptied or
// settled); here every market where the vault holds tokens counts. The two agree because the vault
// untracks a market only once it holds none of its tokens, or once it is settled, after which it
// holds only losing tokens (worth 0) or none (a claim burns every token of a voided market). They
// would differ only for tokens that someone else sends to the vault in a market where it has no open
// position.

const WAD = 10n ** 18n;

/** A market as the indexer sees it: on-chain status, the winner once resolved, prices in WAD. */
export type MarketState = {
  status: string;
  resolvedOutcome: number | null;
  /** One price per outcome, as Market.prices() reports it; its length is the outcome count. */
  pricesWad: bigint[];
};

/** What a holder owns of one market: tokens per outcome index. */
export type Holding = { market: MarketState; tokens: bigint[] };

/** The worth of `tokens` of one outcome: AgentVault.positionValue's rule for a single outcome. */
export function outcomeValue(market: MarketState, outcome: number, tokens: bigint): bigint {
  if (market.status === "resolved") return outcome === market.resolvedOutcome ? tokens : 0n;
  if (market.status === "voided") return tokens / BigInt(market.pricesWad.length);
  return (tokens * (market.pricesWad[outcome] ?? 0n)) / WAD;
}

/**
 * AgentVault.positionValue: a resolved market's winning tokens at 1 USDC; a voided market's tokens
 * summed then divided by the outcome count (rounded down once per market); otherwise each
 * outcome's tokens at its price, rounded down per outcome.
 */
export function holdingValue({ market, tokens }: Holding): bigint {
  if (market.status === "voided") return tokens.reduce((sum, held) => sum + held, 0n) / BigInt(market.pricesWad.length);
  return tokens.reduce((sum, held, outcome) => sum + outcomeValue(market, outcome, held), 0n);
}

/** AgentVault.netAssetValue: cash plus every holding's value. */
export const netAssetValue = (cash: bigint, holdings: Holding[]): bigint =>
  holdings.reduce((nav, holding) => nav + holdingValue(holding), cash);

/**
 * AgentVault.bondValue: the bond's share of the net asset value (rounded down), less the
 * performance fee on what exceeds its high-water mark (rounded down).
 */
export function bondValue(parameters: {
  nav: bigint;
  shares: bigint;
  totalShares: bigint;
  highWater: bigint;
  feeBps: number;
}): { value: bigint; fee: bigint } {
  const { nav, shares, totalShares, highWater, feeBps } = parameters;
  if (shares === 0n || totalShares === 0n) return { value: 0n, fee: 0n };
  const gross = (nav * shares) / totalShares;
  const fee = gross > highWater ? ((gross - highWater) * BigInt(feeBps)) / 10_000n : 0n;
  return { value: gross - fee, fee };
}
