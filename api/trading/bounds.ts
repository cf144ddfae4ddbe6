// Slippage bounds and payouts in chain units (USDC and outcome tokens both have 6 decimals). A
// user's price limit becomes the contract's minimum output, rounded up, so that no fill is worse
// than the stated price, not even by one unit; the contract then reverts rather than fill worse.

/** A finite, non-negative JavaScript number as an exact fraction of its shortest decimal form (`1e-7` too). */
export function decimalFraction(value: number): { numerator: bigint; denominator: bigint } {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`not a finite non-negative number: ${value}`);
  const [mantissa = "0", exponentText = "0"] = String(value).split("e");
  const [whole = "0", fraction = ""] = mantissa.split(".");
  const exponent = Number(exponentText) - fraction.length;
  const digits = BigInt(whole + fraction);
  return exponent >= 0
    ? { numerator: digits * 10n ** BigInt(exponent), denominator: 1n }
    : { numerator: digits, denominator: 10n ** BigInt(-exponent) };
}

const ceilDiv = (numerator: bigint, denominator: bigint) => (numerator + denominator - 1n) / denominator;

/** The fewest tokens a buy of `spendUnits` may bring so that its average price is at most `maxPrice`; 0 without a limit. */
export function minTokensOut(spendUnits: bigint, maxPrice: number | undefined): bigint {
  if (maxPrice === undefined) return 0n;
  const price = decimalFraction(maxPrice);
  if (price.numerator === 0n) throw new RangeError("maxPrice must be positive");
  return ceilDiv(spendUnits * price.denominator, price.numerator);
}

/** The least USDC a sale of `tokenUnits` may bring so that its average price is at least `minPrice`; 0 without a limit. */
export function minUsdcOut(tokenUnits: bigint, minPrice: number | undefined): bigint {
  if (minPrice === undefined) return 0n;
  const price = decimalFraction(minPrice);
  return ceilDiv(tokenUnits * price.numerator, price.denominator);
}

/** USDC per token of a fill, as served (both amounts in the same 6-decimal units). */
export const averagePrice = (usdcUnits: bigint, tokenUnits: bigint) => Number(usdcUnits) / Number(tokenUnits);

/**
 * What a claim pays: every winning token redeems for 1 USDC; in a voided market every token
 * redeems for 1/n, rounded down as the contract does.
 */
export function claimPayout(parameters: { voided: boolean; heldUnits: bigint; outcomeCount: number }): bigint {
  return parameters.voided ? parameters.heldUnits / BigInt(parameters.outcomeCount) : parameters.heldUnits;
}
