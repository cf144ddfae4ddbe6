// Serialized answers of public reads, kept until the data under them changes: the change listener
// clears the cache whenever Ponder commits indexed rows or the API writes its own tables. Entries
// also expire after `ttlMs`, which bounds what only the clock changes (a market passing closesAt).
import type { MiddlewareHandler } from "hono";

type Entry = { body: string; storedAt: number };

export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every clear, so that an answer computed before a change is not stored after it. */
  generation = 0;

  constructor(
    private readonly options: {
      ttlMs: number;
      maxEntries: number;
      /** Off while changes cannot be heard (the change listener is disconnected). */
      enabled: () => boolean;
      /** Milliseconds on a monotonic clock; tests pass their own. */
      now?: () => number;
    },
  ) {}

  private now() {
    return this.options.now ? this.options.now() : performance.now();
  }

  get(key: string): string | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (!this.options.enabled() || this.now() - entry.storedAt > this.options.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.body;
  }

  set(key: string, body: string, generation: number) {
    if (!this.options.enabled() || generation !== this.generation) return;
    if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { body, storedAt: this.now() });
  }

  clear() {
    this.generation++;
    this.entries.clear();
  }
}

/**
 * Answers a GET from the cache, or lets the route answer and keeps a 200's JSON body. Concurrent
 * misses of one key wait for the first instead of each querying the database (single flight): an
 * expiry under load would otherwise send every open connection to PostgreSQL at once.
 */
export const cacheReads = (cache: ReadCache): MiddlewareHandler => {
  const inFlight = new Map<string, { generation: number; body: Promise<string | undefined> }>();
  const hit = (c: Parameters<MiddlewareHandler>[0], body: string) =>
    c.body(body, 200, { "content-type": "application/json", "x-cache": "hit" });

  // Hono's router may run a middleware twice in one request (seen for a path that is its own pattern:
  // `/api/markets/*` taken literally); the second run would wait for the first's answer, which
  // waits for it.
  const passed = new WeakSet<Request>();

  return async (c, next) => {
    if (c.req.method !== "GET" || passed.has(c.req.raw)) return next();
    passed.add(c.req.raw);
    const key = c.req.url;
    const cached = cache.get(key);
    if (cached !== undefined) return hit(c, cached);
    // Only an answer begun since the last change may be shared.
    const pending = inFlight.get(key);
    if (pending && pending.generation === cache.generation) {
      const body = await pending.body;
      if (body !== undefined) return hit(c, body);
      return next();
    }

    const generation = cache.generation;
    let settle!: (body: string | undefined) => void;
    inFlight.set(key, { generation, body: new Promise((resolve) => (settle = resolve)) });
    try {
      await next();
      const ok = c.res.status === 200 && c.res.headers.get("content-type")?.startsWith("application/json");
      const body = ok ? await c.res.clone().text() : undefined;
      if (body !== undefined) cache.set(key, body, generation);
      settle(body);
    } finally {
      settle(undefined);
      if (inFlight.get(key)?.generation === generation) inFlight.delete(key);
    }
  };
};

/**
 * A value kept in the cache as JSON under `key`, or loaded (and kept, unless the data changed
 * meanwhile). For answers that are not one cacheable response as a whole, such as a post whose
 * views this process adds on top.
 */
export async function cachedValue<T>(
  cache: ReadCache | undefined,
  key: string,
  load: () => Promise<T | undefined>,
): Promise<T | undefined> {
  const kept = cache?.get(key);
  if (kept !== undefined) return JSON.parse(kept) as T;
  const generation = cache?.generation ?? 0;
  const value = await load();
  if (cache && value !== undefined) cache.set(key, JSON.stringify(value), generation);
  return value;
}
