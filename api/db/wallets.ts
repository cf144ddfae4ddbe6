import { type Db, withClient } from "./pool";

export type WalletRow = { wallet_id: string; user_id: string; address: string; created_at: Date };

export function walletQueries(db: Db) {
  return {
    async find(userId: string): Promise<WalletRow | undefined> {
      const { rows } = await db.query<WalletRow>("SELECT * FROM api.wallet WHERE user_id = $1", [userId]);
      return rows[0];
    },

    /** Creates the wallet unless it exists; `created` tells which. Concurrent calls create one. */
    async getOrCreate(userId: string, address: string): Promise<{ wallet: WalletRow; created: boolean }> {
      const inserted = await db.query<WalletRow>(
        "INSERT INTO api.wallet (user_id, address) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING RETURNING *",
        [userId, address],
      );
      if (inserted.rows[0]) return { wallet: inserted.rows[0], created: true };
      const existing = await this.find(userId);
      if (!existing) throw new Error(`wallet of ${userId} vanished`);
      return { wallet: existing, created: false };
    },

    /**
     * Runs `grant` only if the user had no faucet grant within `intervalSeconds`, serialised per user
     * by an advisory lock so that two concurrent calls cannot both pass the check.
     */
    async withFaucetAllowance<T>(
      userId: string,
      intervalSeconds: number,
      grant: () => Promise<{ amount: bigint; txHash: string; result: T }>,
    ): Promise<{ allowed: true; result: T } | { allowed: false; retryAfterSeconds: number }> {
      return withClient(db, async (client) => {
        try {
          await client.query("BEGIN");
          await client.query("SELECT pg_advisory_xact_lock(hashtext('faucet:' || $1))", [userId]);
          const { rows } = await client.query<{ wait: number }>(
            `SELECT ceil(extract(epoch FROM (max(granted_at) + make_interval(secs => $2)) - now()))::int AS wait
               FROM api.faucet_grant WHERE user_id = $1`,
            [userId, intervalSeconds],
          );
          const wait = rows[0]?.wait ?? null;
          if (wait !== null && wait > 0) {
            await client.query("ROLLBACK");
            return { allowed: false, retryAfterSeconds: wait };
          }
          const { amount, txHash, result } = await grant();
          await client.query("INSERT INTO api.faucet_grant (user_id, amount, tx_hash) VALUES ($1, $2, $3)", [
            userId,
            amount.toString(),
            txHash,
          ]);
          await client.query("COMMIT");
          return { allowed: true, result };
        } catch (error) {
          await client.query("ROLLBACK").catch(() => {});
          throw error;
        }
      });
    },
  };
}
