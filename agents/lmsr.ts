// The LMSR curve of the markets (Market.sol), as far as a strategy needs it: what it costs to move an
// outcome's price. Buying outcome i raises only its own quantity q_i, so with p = e^(q_i/b) / Σ e^(q_j/b)
// the cost of moving p to t > p is b·ln((1−p)/(1−t)), whatever the number of outcomes; selling δ
// tokens moves p to t < p for δ = b·ln(p(1−t) / (t(1−p))).

/** USDC to spend, fee included, so that outcome's price moves from `price` up to `target`. */
export function buyCostToMove(market: { b: number; feeBps: number }, price: number, target: number): number {
  if (!(target > price) || target >= 1) return 0;
  const curve = market.b * Math.log((1 - price) / (1 - target));
  return curve / (1 - market.feeBps / 10_000);
}

/** Tokens to sell so that the outcome's price moves from `price` down to `target`. */
export function sellTokensToMove(market: { b: number }, price: number, target: number): number {
  if (!(target < price) || target <= 0) return 0;
  return market.b * Math.log((price * (1 - target)) / (target * (1 - price)));
}

/** The outcome's price after spending `amount` USDC (fee included) on it at `price`. */
export function priceAfterBuy(market: { b: number; feeBps: number }, price: number, amount: number): number {
  const grow = Math.exp((amount * (1 - market.feeBps / 10_000)) / market.b);
  // From cost = b·ln((1−p)/(1−t)): 1 − t = (1 − p)·e^(−cost/b).
  return 1 - (1 - price) / grow;
}
