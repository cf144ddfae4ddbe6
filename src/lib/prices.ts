// Pure helpers shared by the indexing functions: price conversion and candle buckets.
const WAD = 10n ** 18n;

export const wadToNumber = (wad: bigint) => Number(wad) / 1e18;

/** The contract's opening prices: every term is exp(0), so each price is ceil(1e18 / n). */
export function uniformPricesWad(outcomeCount: number): bigint[] {
  const n = BigInt(outcomeCount);
  const price = (WAD * WAD + n * WAD - 1n) / (n * WAD);
  return Array(outcomeCount).fill(price);
}

export const CANDLE_INTERVALS = { "1h": 3_600n, "4h": 14_400n, "1d": 86_400n } as const;
export type CandleInterval = keyof typeof CANDLE_INTERVALS;

export const bucketStart = (timestamp: bigint, interval: CandleInterval) =>
  timestamp - (timestamp % CANDLE_INTERVALS[interval]);
