// Pure helpers shared by the indexing functions: price conversion and candle buckets.
import { CANDLE_INTERVAL_SECONDS, type CandleInterval } from "../../constants";

const WAD = 10n ** 18n;

export const wadToNumber = (wad: bigint) => Number(wad) / 1e18;

/** The contract's opening prices: every term is exp(0), so each price is ceil(1e18 / n). */
export function uniformPricesWad(outcomeCount: number): bigint[] {
  const n = BigInt(outcomeCount);
  const price = (WAD * WAD + n * WAD - 1n) / (n * WAD);
  return Array(outcomeCount).fill(price);
}

export const CANDLE_INTERVALS = Object.keys(CANDLE_INTERVAL_SECONDS) as CandleInterval[];

export const bucketStart = (timestamp: bigint, interval: CandleInterval) =>
  timestamp - (timestamp % BigInt(CANDLE_INTERVAL_SECONDS[interval]));
