// hono-rate-limiter's Store over PostgreSQL, so that every API process counts against the same
// numbers: one fixed window per limit and key (a user id, a client address), opened by its first
// hit and timed by the database's clock, counted by one upsert per request. A key's row is reused
// window after window, so the table holds at most one row per key and limit; keys that come and go
// (client addresses) are swept once their window has closed. Reset times are sent as durations
// from the database's clock and turned into this host's time, so clock skew does not show.
import type { ClientRateLimitInfo, Store } from "hono-rate-limiter";
import type { Db } from "./pool";

const RESET_IN_MS = "(extract(epoch FROM reset_at - now()) * 1000)::float8 AS reset_in_ms";
const info = (row: { hits: number; reset_in_ms: number }): ClientRateLimitInfo => ({
  totalHits: row.hits,
  resetTime: new Date(Date.now() + row.reset_in_ms),
});

type Waiter = { resolve: (info: ClientRateLimitInfo) => void; reject: (error: unknown) => void };

export class PostgresLimitStore implements Store {
  readonly localKeys = false;
  readonly prefix: string;
  private windowMs = 60_000;
  private nextSweep = 0;
  /** Hits not yet sent, by key. */
  private waiting = new Map<string, Waiter[]>();
  private inFlight = false;

  constructor(
    private readonly db: Db,
    private readonly name: string,
  ) {
    this.prefix = `${name}:`;
  }

  init(options: { windowMs: number }) {
    this.windowMs = options.windowMs;
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const { rows } = await this.db.query(
      `SELECT hits, ${RESET_IN_MS} FROM api.write_limit WHERE name = $1 AND key = $2 AND reset_at > now()`,
      [this.name, key],
    );
    return rows[0] && info(rows[0]);
  }

  /**
   * One upsert per hit would queue concurrent hits of one key (a busy client address) on its
   * row's lock, a round trip each: measured, 1,840 cached reads/s from one address fell to 295.
   * So each store has at most one upsert in flight in this process; the hits that arrive meanwhile,
   * of any keys, go together in the next one, and each is told its own place in its key's count.
   */
  increment(key: string): Promise<ClientRateLimitInfo> {
    if (Date.now() >= this.nextSweep) this.sweep();
    return new Promise((resolve, reject) => {
      const hits = this.waiting.get(key);
      if (hits) hits.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
      if (!this.inFlight) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    const batch = this.waiting;
    this.waiting = new Map();
    this.inFlight = true;
    // Rows locked in one order by every process, so that two batches never deadlock.
    const keys = [...batch.keys()].sort();
    try {
      const { rows } = await this.db.query<{ key: string; hits: number; reset_in_ms: number }>({
        name: "write_limit_increment",
        text: `INSERT INTO api.write_limit AS w (name, key, hits, reset_at)
               SELECT $1, b.key, b.hits, now() + make_interval(secs => $2::float8 / 1000)
                 FROM unnest($3::text[], $4::int[]) WITH ORDINALITY AS b(key, hits, position)
                ORDER BY b.position
               ON CONFLICT (name, key) DO UPDATE
                 SET hits = CASE WHEN w.reset_at > now() THEN w.hits + EXCLUDED.hits ELSE EXCLUDED.hits END,
                     reset_at = CASE WHEN w.reset_at > now() THEN w.reset_at ELSE EXCLUDED.reset_at END
               RETURNING key, hits, ${RESET_IN_MS}`,
        values: [this.name, this.windowMs, keys, keys.map((key) => batch.get(key)!.length)],
      });
      for (const row of rows) {
        const { totalHits, resetTime } = info(row);
        const hits = batch.get(row.key)!;
        // The batch's hits of this key are the last of its count, in the order they came.
        for (const [i, hit] of hits.entries()) hit.resolve({ totalHits: totalHits - hits.length + 1 + i, resetTime });
      }
    } catch (error) {
      for (const hits of batch.values()) for (const hit of hits) hit.reject(error);
    }
    this.inFlight = false;
    if (this.waiting.size > 0) void this.flush();
  }

  async decrement(key: string) {
    await this.db.query(
      "UPDATE api.write_limit SET hits = hits - 1 WHERE name = $1 AND key = $2 AND reset_at > now() AND hits > 0",
      [this.name, key],
    );
  }

  /** At most once a window (or a minute), in the background: a failed sweep is tried again next time. */
  private sweep() {
    this.nextSweep = Date.now() + Math.max(this.windowMs, 60_000);
    this.db.query("DELETE FROM api.write_limit WHERE name = $1 AND reset_at < now()", [this.name]).catch(() => {
      this.nextSweep = 0;
    });
  }

  async resetKey(key: string) {
    await this.db.query("DELETE FROM api.write_limit WHERE name = $1 AND key = $2", [this.name, key]);
  }
}
