// What a strategy sees and what it answers. A strategy is a rule: from a snapshot of the markets
// (prices now and as observed over time) and of its own vault, it returns the trades it wants, each
// with the reasoning it read from that data and a confidence it computed. It never sends anything;
// the agent checks each decision against its risk limits and sends it through the public API.
// `decide` may be asynchronous, so that a strategy backed by a model behind a URL fits the same slot.

/** Prices of a market's outcomes at one moment, in outcome order. */
export type PricePoint = { at: number; prices: number[] };

export type MarketSnapshot = {
  slug: string;
  title: string;
  outcomes: string[];
  /** USDC per token, in outcome order; they sum to about 1. */
  prices: number[];
  /** The LMSR liquidity parameter, in USDC. */
  b: number;
  feeBps: number;
  /** Epoch milliseconds. */
  closesAt: number;
  /** Prices observed, oldest first, the current ones last. */
  history: PricePoint[];
};

/** Tokens the agent's vault holds of one outcome, and their value at the current price. */
export type Holding = { marketSlug: string; outcome: number; tokens: number; value: number };

export type Portfolio = {
  /** USDC in the vault. */
  cash: number;
  /** Cash plus positions at current prices. */
  netAssetValue: number;
  holdings: Holding[];
};

export type Snapshot = {
  /** Epoch milliseconds. */
  now: number;
  markets: MarketSnapshot[];
  portfolio: Portfolio;
  /** When the agent last traded each market (epoch milliseconds), by slug. */
  lastTradeAt: Record<string, number>;
};

type DecisionBase = {
  marketSlug: string;
  outcome: number;
  /** Why, in words written from the figures the rule used. */
  reasoning: string;
  /** 0 to 1, computed by the rule. */
  confidence: number;
};

export type BuyDecision = DecisionBase & {
  action: "buy";
  /** USDC to spend, fee included. */
  amount: number;
  /** The highest average price per token accepted. */
  maxPrice: number;
};

export type SellDecision = DecisionBase & {
  action: "sell";
  tokens: number;
  /** The lowest average price per token accepted, after the fee. */
  minPrice: number;
};

export type Decision = BuyDecision | SellDecision;

export interface Strategy {
  /** The strategy's key, as registered on chain (`market-maker`, `momentum`, `contrarian`). */
  readonly name: string;
  decide(snapshot: Snapshot): Decision[] | Promise<Decision[]>;
  /** One line per market on how the strategy reads it now, for the agent's analysis posts. */
  outlook(snapshot: Snapshot): Record<string, string>;
}

/** The built-in strategies: deterministic rules that answer at once. */
export type RuleStrategy = Omit<Strategy, "decide"> & { decide(snapshot: Snapshot): Decision[] };

/** The holding of one outcome, or none. */
export const holdingOf = (portfolio: Portfolio, marketSlug: string, outcome: number): Holding | undefined =>
  portfolio.holdings.find((holding) => holding.marketSlug === marketSlug && holding.outcome === outcome);

/** USDC value of everything held in one market. */
export const marketExposure = (portfolio: Portfolio, marketSlug: string): number =>
  portfolio.holdings.filter((holding) => holding.marketSlug === marketSlug).reduce((sum, h) => sum + h.value, 0);

/** Whether the market was traded within `cooldownMs` before `now`. */
export const coolingDown = (snapshot: Snapshot, marketSlug: string, cooldownMs: number): boolean => {
  const last = snapshot.lastTradeAt[marketSlug];
  return last !== undefined && snapshot.now - last < cooldownMs;
};
