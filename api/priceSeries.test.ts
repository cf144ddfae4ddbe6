import { describe, expect, it } from "vitest";
import { ApiError } from "./http/errors";
import {
  asciiJsonString,
  bucketTimestamp,
  fillPriceSeries,
  MAX_PRICE_POINTS,
  priceHistoryJson,
  priceWindow,
} from "./priceSeries";

const HOUR = 3_600;
const T0 = 1_767_225_600; // 2026-01-01T00:00:00Z, a bucket start for every interval

const rejection = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error as ApiError;
  }
  throw new Error("did not throw");
};

describe("priceWindow", () => {
  it("spans the buckets holding from and to", () => {
    expect(
      priceWindow({ interval: "1h", fromSeconds: T0 + 10, toSeconds: T0 + 3 * HOUR + 5, createdSeconds: 0 }),
    ).toEqual({ first: T0, last: T0 + 3 * HOUR, size: HOUR });
  });

  it("starts no earlier than the market's creation", () => {
    const window = priceWindow({
      interval: "1h",
      fromSeconds: T0,
      toSeconds: T0 + 5 * HOUR,
      createdSeconds: T0 + 2 * HOUR + 1,
    });
    expect(window?.first).toBe(T0 + 2 * HOUR);
  });

  it("without from, reaches back to the creation or as far as the point limit allows", () => {
    const young = priceWindow({ interval: "1h", toSeconds: T0 + 5 * HOUR, createdSeconds: T0 + HOUR });
    expect(young?.first).toBe(T0 + HOUR);
    const old = priceWindow({ interval: "1h", toSeconds: T0 + 5_000 * HOUR, createdSeconds: 0 })!;
    expect((old.last - old.first) / HOUR + 1).toBe(MAX_PRICE_POINTS);
  });

  it("is empty when the whole range is before the market existed", () => {
    expect(
      priceWindow({ interval: "1d", fromSeconds: T0 - 10 * 86_400, toSeconds: T0 - 86_400, createdSeconds: T0 }),
    ).toBeNull();
  });

  it("answers 400 naming from when from is after to", () => {
    const error = rejection(() =>
      priceWindow({ interval: "1h", fromSeconds: T0 + 1, toSeconds: T0, createdSeconds: 0 }),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, details: { parameter: "from" } });
  });

  it("allows exactly MAX_PRICE_POINTS buckets and answers 400 for one more, whatever the creation time", () => {
    const to = T0 + (MAX_PRICE_POINTS - 1) * HOUR;
    expect(priceWindow({ interval: "1h", fromSeconds: T0, toSeconds: to, createdSeconds: 0 })).not.toBeNull();
    const error = rejection(() =>
      priceWindow({ interval: "1h", fromSeconds: T0 - HOUR, toSeconds: to, createdSeconds: to }),
    );
    expect(error).toMatchObject({ status: 400, details: { parameter: "from" } });
    expect(error.message).toContain(`more than ${MAX_PRICE_POINTS} 1h points`);
  });
});

describe("fillPriceSeries", () => {
  const window = { first: T0, last: T0 + 4 * HOUR, size: HOUR };

  it("gives each bucket its close and carries the previous price through buckets without trades", () => {
    const candles = [
      { start: T0 + HOUR, close: [0.6, 0.4] },
      { start: T0 + 3 * HOUR, close: [0.7, 0.3] },
    ];
    const points = fillPriceSeries({ window, interval: "1h", end: window.last, candles, opening: [0.5, 0.5] });
    expect(points).toEqual([
      { start: T0, prices: [0.5, 0.5] },
      { start: T0 + HOUR, prices: [0.6, 0.4] },
      { start: T0 + 2 * HOUR, prices: [0.6, 0.4] },
      { start: T0 + 3 * HOUR, prices: [0.7, 0.3] },
      { start: T0 + 4 * HOUR, prices: [0.7, 0.3] },
    ]);
  });

  it("opens with the last close before the window, else with the opening prices", () => {
    const before = [{ start: T0 - 5 * HOUR, close: [0.2, 0.8] }];
    const run = (candles: typeof before) =>
      fillPriceSeries({ window, interval: "1h", end: T0 + HOUR, candles, opening: [0.5, 0.5] });
    expect(run(before)).toEqual([
      { start: T0, prices: [0.2, 0.8] },
      { start: T0 + HOUR, prices: [0.2, 0.8] },
    ]);
    expect(run([])[0]).toEqual({ start: T0, prices: [0.5, 0.5] });
  });

  it("runs past window.last to a later end (trades stamped ahead of the clock)", () => {
    const candles = [{ start: T0 + 6 * HOUR, close: [0.9, 0.1] }];
    const points = fillPriceSeries({ window, interval: "1h", end: T0 + 6 * HOUR, candles, opening: [0.5, 0.5] });
    expect(points).toHaveLength(7);
    expect(points.at(-1)).toEqual({ start: T0 + 6 * HOUR, prices: [0.9, 0.1] });
  });

  it("answers 400 when the end would take the series past MAX_PRICE_POINTS", () => {
    const end = T0 + MAX_PRICE_POINTS * HOUR;
    const error = rejection(() => fillPriceSeries({ window, interval: "1h", end, candles: [], opening: [1] }));
    expect(error).toMatchObject({ status: 400, details: { parameter: "from" } });
    expect(fillPriceSeries({ window, interval: "1h", end: end - HOUR, candles: [], opening: [1] })).toHaveLength(
      MAX_PRICE_POINTS,
    );
  });
});

describe("priceHistoryJson", () => {
  const points = [
    { start: T0, prices: [0.1 + 0.2, 1e-7, 0.000012345] },
    { start: T0 + HOUR, prices: [2 / 3, 0, 5e-324] },
    { start: T0 + 2 * HOUR, prices: [0.25] },
  ];
  const asObjects = (outcomes: string[]) => ({
    slug: "fed-cuts",
    interval: "1h",
    prices: points.map((point) => ({
      timestamp: new Date(point.start * 1000).toISOString(),
      ...Object.fromEntries(outcomes.map((name, i) => [name, point.prices[i] ?? 0])),
    })),
  });

  it("writes the text JSON.stringify writes for the answer's objects", () => {
    const outcomes = ["Yes", "No", 'a "quoted" \\ name'];
    const text = priceHistoryJson({ slug: "fed-cuts", interval: "1h", outcomes, points });
    expect(text).toBe(JSON.stringify(asObjects(outcomes)));
  });

  it("writes ASCII only, the same object once parsed, when names are not ASCII", () => {
    const outcomes = ["Sí", "Nö 😀"];
    const text = priceHistoryJson({ slug: "élection", interval: "1h", outcomes, points });
    expect(text).toMatch(/^[ -~]*$/);
    expect(JSON.parse(text)).toEqual({ ...asObjects(outcomes), slug: "élection" });
  });

  it("keeps outcome names that look like numbers in outcome order, the same object once parsed", () => {
    const outcomes = ["2027", "2028", "never"];
    const text = priceHistoryJson({ slug: "fed-cuts", interval: "1h", outcomes, points });
    expect(text).toContain(
      '{"timestamp":"2026-01-01T00:00:00.000Z","2027":0.30000000000000004,"2028":1e-7,"never":0.000012345}',
    );
    expect(JSON.parse(text)).toEqual(asObjects(outcomes));
  });
});

describe("asciiJsonString", () => {
  it("escapes every character outside ASCII and parses back to the same string", () => {
    for (const value of ["Sí", "naïve 😀", "日本", 'plain "quoted" \\ text\n', "\ud800 lone"]) {
      const text = asciiJsonString(value);
      expect(text).toMatch(/^[ -~]*$/);
      expect(JSON.parse(text)).toBe(value);
    }
    expect(asciiJsonString("Yes")).toBe(JSON.stringify("Yes"));
  });
});

describe("bucketTimestamp", () => {
  it("writes a second as Date's toISOString does, across days, years and centuries", () => {
    const seconds = [0, -1, -86_400, 59, 3_599, 86_399, T0 - 1, T0, T0 + 13 * HOUR + 61, 951_782_400, 4_102_444_799];
    for (let hour = 0; hour < 24 * 400; hour += 7) seconds.push(T0 + hour * HOUR + (hour % 3600));
    for (const second of seconds) expect(bucketTimestamp(second)).toBe(new Date(second * 1000).toISOString());
  });
});
