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
    private readonly options: { ttlMs: number; maxEntries: number; enabled: () => boolean },
  ) {}

  get(key: string): string | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (!this.options.enabled() || performance.now() - entry.storedAt > this.options.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.body;
  }

  set(key: string, body: string, generation: number) {
    if (!this.options.enabled() || generation !== this.generation) return;
    if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { body, storedAt: performance.now() });
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

  return async (c, next) => {
    if (c.req.method !== "GET") return next();
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
