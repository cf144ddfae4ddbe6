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

/** Answers a GET from the cache, or lets the route answer and keeps a 200's JSON body. */
export const cacheReads = (cache: ReadCache): MiddlewareHandler => async (c, next) => {
  if (c.req.method !== "GET") return next();
  const key = c.req.url;
  const cached = cache.get(key);
  if (cached !== undefined) {
    return c.body(cached, 200, { "content-type": "application/json", "x-cache": "hit" });
  }
  const generation = cache.generation;
  await next();
  if (c.res.status === 200 && c.res.headers.get("content-type")?.startsWith("application/json")) {
    cache.set(key, await c.res.clone().text(), generation);
  }
};
