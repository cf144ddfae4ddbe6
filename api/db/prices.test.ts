import { describe, expect, it } from "vitest";
import { unpackCandles } from "./prices";

/** What PostgreSQL's int8send(start) || float8send(close[1]) || ... writes for each candle. */
function packed(candles: { start: number; close: number[] }[]): Buffer {
  return Buffer.concat(
    candles.map(({ start, close }) => {
      const bytes = Buffer.alloc(8 + 8 * close.length);
      bytes.writeBigInt64BE(BigInt(start), 0);
      for (const [i, value] of close.entries()) bytes.writeDoubleBE(value, 8 + 8 * i);
      return bytes;
    }),
  );
}

describe("unpackCandles", () => {
  it("reads every candle's start and closes in order", () => {
    const candles = [
      { start: 1_700_000_000, close: [0.52, 0.48] },
      { start: 1_700_003_600, close: [1e-5, 0.99999] },
      { start: 1_700_007_200, close: [0.2, 0.8] },
    ];
    expect(unpackCandles(packed(candles), 2)).toEqual(candles);
  });

  it("reads as many closes as the market has outcomes", () => {
    const candles = [{ start: 3600, close: [0.2, 0.3, 0.5] }];
    expect(unpackCandles(packed(candles), 3)).toEqual(candles);
  });

  it("puts candles delivered out of order back in order", () => {
    const late = { start: 7200, close: [0.6, 0.4] };
    const early = { start: 3600, close: [0.5, 0.5] };
    expect(unpackCandles(packed([late, early]), 2)).toEqual([early, late]);
  });

  it("reads no candles from SQL NULL (no rows aggregated)", () => {
    expect(unpackCandles(null, 2)).toEqual([]);
  });
});
