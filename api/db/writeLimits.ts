// hono-rate-limiter's Store over PostgreSQL, so that every API process counts against the same
// numbers: one fixed window per limit and key (a user id), opened by its first hit and timed by
// the database's clock, counted by one upsert per request. A user's row is reused window after
// window, so the table holds at most one row per user and limit. Reset times are sent as durations
// from the database's clock and turned into this host's time, so clock skew does not show.
import type { ClientRateLimitInfo, Store } from "hono-rate-limiter";
import type { Db } from "./pool";

const RESET_IN_MS = "(extract(epoch FROM reset_at - now()) * 1000)::float8 AS reset_in_ms";
const info = (row: { hits: number; reset_in_ms: number }): ClientRateLimitInfo => ({
  totalHits: row.hits,
  resetTime: new Date(Date.now() + row.reset_in_ms),
});

export class PostgresLimitStore implements Store {
  readonly localKeys = false;
  readonly prefix: string;
  private windowMs = 60_000;

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

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const { rows } = await this.db.query({
      name: "write_limit_increment",
      text: `INSERT INTO api.write_limit AS w (name, key, hits, reset_at)
             VALUES ($1, $2, 1, now() + make_interval(secs => $3::float8 / 1000))
             ON CONFLICT (name, key) DO UPDATE
               SET hits = CASE WHEN w.reset_at > now() THEN w.hits + 1 ELSE 1 END,
                   reset_at = CASE WHEN w.reset_at > now() THEN w.reset_at ELSE EXCLUDED.reset_at END
             RETURNING hits, ${RESET_IN_MS}`,
      values: [this.name, key, this.windowMs],
    });
    return info(rows[0]);
  }

  async decrement(key: string) {
    await this.db.query(
      "UPDATE api.write_limit SET hits = hits - 1 WHERE name = $1 AND key = $2 AND reset_at > now() AND hits > 0",
      [this.name, key],
    );
  }

  async resetKey(key: string) {
    await this.db.query("DELETE FROM api.write_limit WHERE name = $1 AND key = $2", [this.name, key]);
  }
}
