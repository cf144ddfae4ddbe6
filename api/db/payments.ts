import type { Db } from "./pool";

export type PaymentClaimRequest = {
  key: string;
  payer: string;
  amount: string;
  network: string;
  nonce: string;
  question: string;
  depth: string;
};

export type PaymentClaim =
  | { kind: "claimed" }
  | { kind: "delivered"; paymentResponse: string; response: unknown }
  | { kind: "in_progress" };

export type PaymentRow = {
  key: string;
  payer: string;
  amount: string;
  question: string;
  status: "researching" | "settled" | "research_failed" | "settlement_failed";
  settlement_tx: string | null;
};

/**
 * A claim still `researching` after this long belongs to a process that died: the payment's
 * authorization (valid for 120 s) has expired by then, so a new claim cannot double-charge.
 */
const STALE_CLAIM = "180 seconds";

export function paymentQueries(db: Db) {
  return {
    /**
     * Claims the payment for this question, or reports what an earlier request with it did. A
     * payment whose research or settlement failed was not charged, so it may be tried again.
     */
    async claim(request: PaymentClaimRequest): Promise<PaymentClaim> {
      const { rows } = await db.query(
        `INSERT INTO api.payment AS p (key, payer, amount, network, nonce, question, depth, status)
              VALUES ($1, $2, $3, $4, $5, $6, $7, 'researching')
         ON CONFLICT (key) DO UPDATE SET status = 'researching', updated_at = now()
               WHERE p.status IN ('research_failed', 'settlement_failed')
                  OR (p.status = 'researching' AND p.updated_at < now() - interval '${STALE_CLAIM}')
         RETURNING key`,
        [request.key, request.payer, request.amount, request.network, request.nonce, request.question, request.depth],
      );
      if (rows.length === 1) return { kind: "claimed" };
      const existing = await db.query("SELECT status, payment_response, response FROM api.payment WHERE key = $1", [
        request.key,
      ]);
      const row = existing.rows[0];
      if (row?.status === "settled")
        return { kind: "delivered", paymentResponse: row.payment_response, response: row.response };
      return { kind: "in_progress" };
    },

    async settled(key: string, settlementTx: string, paymentResponse: string, response: unknown) {
      await db.query(
        `UPDATE api.payment SET status = 'settled', settlement_tx = $2, payment_response = $3, response = $4,
                updated_at = now()
          WHERE key = $1`,
        [key, settlementTx, paymentResponse, JSON.stringify(response)],
      );
    },

    async failed(key: string, status: "research_failed" | "settlement_failed") {
      await db.query("UPDATE api.payment SET status = $2, updated_at = now() WHERE key = $1", [key, status]);
    },

    /** A payment the facilitator refused was never a payment: its claim is forgotten. */
    async release(key: string) {
      await db.query("DELETE FROM api.payment WHERE key = $1 AND status = 'researching'", [key]);
    },

    async byPayer(payer: string): Promise<PaymentRow[]> {
      const { rows } = await db.query(
        `SELECT key, payer, amount::text, question, status, settlement_tx
           FROM api.payment WHERE lower(payer) = lower($1) ORDER BY created_at`,
        [payer],
      );
      return rows;
    },

    /**
     * The faucet's allowance: records a grant to `address` unless one came within the interval;
     * otherwise the seconds until the next is allowed.
     */
    async withFaucetAllowance<T>(
      address: string,
      intervalSeconds: number,
      grant: () => Promise<T>,
    ): Promise<{ allowed: true; result: T } | { allowed: false; retryAfterSeconds: number }> {
      const key = address.toLowerCase();
      const { rows } = await db.query(
        `INSERT INTO api.payment_faucet_grant AS g (address, granted_at) VALUES ($1, now())
         ON CONFLICT (address) DO UPDATE SET granted_at = now()
               WHERE g.granted_at <= now() - make_interval(secs => $2)
         RETURNING address`,
        [key, intervalSeconds],
      );
      if (rows.length === 0) {
        const { rows: last } = await db.query(
          `SELECT ceil(extract(epoch FROM granted_at + make_interval(secs => $2) - now()))::int AS wait
             FROM api.payment_faucet_grant WHERE address = $1`,
          [key, intervalSeconds],
        );
        return { allowed: false, retryAfterSeconds: Math.max(1, last[0]?.wait ?? 1) };
      }
      try {
        return { allowed: true, result: await grant() };
      } catch (error) {
        // Nothing was granted: the address may ask again at once.
        await db.query("DELETE FROM api.payment_faucet_grant WHERE address = $1", [key]);
        throw error;
      }
    },
  };
}
