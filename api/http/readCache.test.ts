import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { cachedValue, cacheReads, ReadCache } from "./readCache";

function cacheWithClock(options: { ttlMs?: number; maxEntries?: number } = {}) {
  const clock = { now: 0, enabled: true };
  const cache = new ReadCache({
    ttlMs: options.ttlMs ?? 1_000,
    maxEntries: options.maxEntries ?? 10,
    enabled: () => clock.enabled,
    now: () => clock.now,
  });
  return { cache, clock };
}

describe("ReadCache", () => {
  it("answers a stored body until its time to live has passed", () => {
    const { cache, clock } = cacheWithClock({ ttlMs: 1_000 });
    cache.set("/a", "A", cache.generation);
    clock.now = 1_000;
    expect(cache.get("/a")).toBe("A");
    clock.now = 1_001;
    expect(cache.get("/a")).toBeUndefined();
  });

  it("forgets everything on clear, and refuses a body computed before the clear", () => {
    const { cache } = cacheWithClock();
    const before = cache.generation;
    cache.set("/a", "A", before);
    cache.clear();
    expect(cache.get("/a")).toBeUndefined();
    cache.set("/a", "stale", before);
    expect(cache.get("/a")).toBeUndefined();
    cache.set("/a", "fresh", cache.generation);
    expect(cache.get("/a")).toBe("fresh");
  });

  it("holds at most maxEntries, dropping the oldest first", () => {
    const { cache } = cacheWithClock({ maxEntries: 2 });
    for (const key of ["/1", "/2", "/3"]) cache.set(key, key, cache.generation);
    expect([cache.get("/1"), cache.get("/2"), cache.get("/3")]).toEqual([undefined, "/2", "/3"]);
  });

  it("neither answers nor stores while disabled (changes cannot be heard)", () => {
    const { cache, clock } = cacheWithClock();
    cache.set("/a", "A", cache.generation);
    clock.enabled = false;
    expect(cache.get("/a")).toBeUndefined();
    cache.set("/b", "B", cache.generation);
    clock.enabled = true;
    expect(cache.get("/b")).toBeUndefined();
  });
});

describe("cacheReads", () => {
  function appWith(cache: ReadCache) {
    const calls = { count: 0 };
    let release!: () => void;
    const gate = { wait: Promise.resolve() as Promise<void> };
    const app = new Hono()
      .use(cacheReads(cache))
      .get("/markets", async (c) => {
        const call = ++calls.count;
        await gate.wait;
        return c.json({ call });
      })
      .get("/missing", (c) => c.json({ error: "no" }, 404))
      .post("/markets", (c) => c.json({ posted: true }));
    const hold = () => {
      gate.wait = new Promise((resolve) => (release = resolve));
      return () => release();
    };
    return { app, calls, hold };
  }

  it("answers when it runs twice in one request, as hono's router does for a literal * in the path", async () => {
    const { cache } = cacheWithClock();
    const reads = cacheReads(cache);
    const app = new Hono()
      .use(reads)
      .use(reads)
      .get("/markets/:slug", (c) => c.json({ slug: "x" }));
    const answer = await Promise.race([
      app.request("/markets/*"),
      new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 1_000)),
    ]);
    expect(answer).not.toBe("hung");
    expect((answer as Response).status).toBe(200);
  });

  it("answers a repeated GET from the cache with x-cache: hit", async () => {
    const { cache } = cacheWithClock();
    const { app, calls } = appWith(cache);
    const first = await app.request("/markets");
    const second = await app.request("/markets");
    expect(first.headers.get("x-cache")).toBeNull();
    expect(second.headers.get("x-cache")).toBe("hit");
    expect(await second.json()).toEqual({ call: 1 });
    expect(calls.count).toBe(1);
  });

  it("lets concurrent misses of one URL wait for the first answer (single flight)", async () => {
    const { cache } = cacheWithClock();
    const { app, calls, hold } = appWith(cache);
    const release = hold();
    const answers = Array.from({ length: 5 }, () => app.request("/markets"));
    await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    const bodies = await Promise.all((await Promise.all(answers)).map((answer) => answer.json()));
    expect(bodies).toEqual(Array(5).fill({ call: 1 }));
    expect(calls.count).toBe(1);
  });

  it("does not share an answer begun before a change with requests that arrive after it", async () => {
    const { cache } = cacheWithClock();
    const { app, calls, hold } = appWith(cache);
    const release = hold();
    const early = app.request("/markets");
    await new Promise((resolve) => setTimeout(resolve, 5));
    cache.clear();
    const late = app.request("/markets");
    await new Promise((resolve) => setTimeout(resolve, 5));
    release();
    expect(await (await early).json()).toEqual({ call: 1 });
    expect(await (await late).json()).toEqual({ call: 2 });
    expect(calls.count).toBe(2);
  });

  it("keeps neither error answers nor other methods", async () => {
    const { cache } = cacheWithClock();
    const { app } = appWith(cache);
    await app.request("/missing");
    expect((await app.request("/missing")).headers.get("x-cache")).toBeNull();
    await app.request("/markets", { method: "POST" });
    expect((await app.request("/markets", { method: "POST" })).headers.get("x-cache")).toBeNull();
  });
});

describe("cachedValue", () => {
  it("loads once and answers from the cache until it is cleared", async () => {
    const { cache } = cacheWithClock();
    let loads = 0;
    const load = async () => ({ n: ++loads });
    expect(await cachedValue(cache, "k", load)).toEqual({ n: 1 });
    expect(await cachedValue(cache, "k", load)).toEqual({ n: 1 });
    cache.clear();
    expect(await cachedValue(cache, "k", load)).toEqual({ n: 2 });
  });

  it("keeps nothing for a missing value, nor a value loaded across a clear", async () => {
    const { cache } = cacheWithClock();
    expect(await cachedValue(cache, "gone", async () => undefined)).toBeUndefined();
    expect(cache.get("gone")).toBeUndefined();
    await cachedValue(cache, "stale", async () => {
      cache.clear();
      return { old: true };
    });
    expect(cache.get("stale")).toBeUndefined();
  });

  it("loads every time without a cache", async () => {
    let loads = 0;
    await cachedValue(undefined, "k", async () => ++loads);
    expect(await cachedValue(undefined, "k", async () => ++loads)).toBe(2);
  });
});
