import { describe, expect, it } from "vitest";
import { unpackCandles } from "./prices";

/** What PostgreSQL's int8send(start) || array_send(close) writes for a one-dimensional float8[]. */
function packed(candles: { start: number; close: number[] }[]): Buffer {
  return Buffer.concat(
    candles.map(({ start, close }) => {
      const head = Buffer.alloc(8 + 12 + (close.length ? 8 : 0));
      head.writeBigInt64BE(BigInt(start), 0);
      head.writeInt32BE(close.length ? 1 : 0, 8);
      head.writeInt32BE(0, 12);
      head.writeInt32BE(701, 16);
      if (close.length) {
        head.writeInt32BE(close.length, 20);
        head.writeInt32BE(1, 24);
      }
      const elements = Buffer.alloc(close.length * 12);
      close.forEach((value, i) => {
        elements.writeInt32BE(8, i * 12);
        elements.writeDoubleBE(value, i * 12 + 4);
      });
      return Buffer.concat([head, elements]);
    }),
  );
}

describe("unpackCandles", () => {
  it("reads every candle's start and closes in order", () => {
    const candles = [
      { start: 1_700_000_000, close: [0.52, 0.48] },
      { start: 1_700_003_600, close: [1e-5, 0.99999] },
      { start: 1_700_007_200, close: [0.2, 0.3, 0.5] },
    ];
    expect(unpackCandles(packed(candles))).toEqual(candles);
  });

  it("reads an empty closes array", () => {
    expect(unpackCandles(packed([{ start: 3600, close: [] }]))).toEqual([{ start: 3600, close: [] }]);
  });

  it("reads no candles from SQL NULL (no rows aggregated)", () => {
    expect(unpackCandles(null)).toEqual([]);
  });
});
