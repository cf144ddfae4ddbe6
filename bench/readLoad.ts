// What the read benchmarks (api, journal) share: an endpoint under load after a warm-up, the same
// query sent straight to PostgreSQL by concurrent loops, and one table row comparing the two.
import { type LoadResult, load } from "./load";

/** A short warm-up first, so that JIT compilation and first connections do not count. */
export async function warmedLoad(url: string, connections: number, seconds: number): Promise<LoadResult> {
  await load(url, connections, 2);
  return load(url, connections, seconds);
}

/** The same work as one request, by `workers` concurrent loops for `seconds`: completions per second. */
export async function queryLoop(request: () => Promise<unknown>, workers: number, seconds: number): Promise<number> {
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < deadline) {
        await request();
        done++;
      }
    }),
  );
  return done / seconds;
}

export const READ_COLUMNS = [
  "endpoint",
  "req/s",
  "p99",
  "req/s, cache off",
  "raw pg req/s",
  "api / raw",
  "cache off / raw",
];

/** The columns a floor (bench/readFloor.ts: the same query behind bare node:http) adds to a row. */
export const FLOOR_COLUMNS = ["bare http + pg req/s", "cache off / bare"];

/** One endpoint: the API as configured, the API with its cache off, the raw query's rate, and the floor if measured. */
export function readRow(
  name: string,
  cached: LoadResult,
  uncached: LoadResult,
  raw: number,
  floor?: LoadResult,
): string[] {
  const floorCells = floor
    ? [
        `${Math.round(floor.requestsPerSecond)} (p99 ${floor.p99Ms.toFixed(1)} ms)`,
        (uncached.requestsPerSecond / floor.requestsPerSecond).toFixed(2),
      ]
    : [];
  return [
    name,
    `${Math.round(cached.requestsPerSecond)}`,
    `${cached.p99Ms.toFixed(1)} ms`,
    `${Math.round(uncached.requestsPerSecond)} (p99 ${uncached.p99Ms.toFixed(1)} ms)`,
    `${Math.round(raw)}`,
    (cached.requestsPerSecond / raw).toFixed(2),
    (uncached.requestsPerSecond / raw).toFixed(2),
    ...floorCells,
  ];
}
