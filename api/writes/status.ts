// What a user is told of a sponsored write: `confirmed` and reverted `failed` come only from the
// indexer; a refusal from the record; `expired` once the sponsorship can no longer be included.
import type { SubmissionStatusRow } from "../db/submissions";
import { isoFromSeconds } from "../format";
import type { StatusWaiters } from "./statusWaiters";

/** Time after the sponsorship's deadline that indexing may still take before a write counts as lost. */
export const INDEXING_MARGIN_MS = 60_000;

export type WriteStatus = {
  txId: string;
  status: "pending" | "confirmed" | "failed";
  txHash: string | null;
  blockNumber: number | null;
  confirmedAt: string | null;
  error?: string;
};

export function writeStatus(txId: string, row: SubmissionStatusRow, nowMs: number): WriteStatus {
  const base = { txId, txHash: row.indexed_tx_hash ?? row.tx_hash, blockNumber: null, confirmedAt: null };
  if (row.success === true)
    return {
      ...base,
      status: "confirmed",
      blockNumber: Number(row.block_number),
      confirmedAt: row.timestamp === null ? null : isoFromSeconds(row.timestamp),
    };
  if (row.success === false)
    return {
      ...base,
      status: "failed",
      blockNumber: Number(row.block_number),
      error: `reverted${row.revert_reason ? ` (${row.revert_reason})` : ""}`,
    };
  if (row.state === "failed") return { ...base, status: "failed", error: row.error ?? "refused" };
  if (nowMs > row.valid_until.getTime() + INDEXING_MARGIN_MS) return { ...base, status: "failed", error: "expired" };
  return { ...base, status: "pending" };
}

/**
 * The caller's write status, read again after holding the request up to `waitMs` while it is
 * `pending` (GET /api/trade/status/{txId}?waitMs=): it answers as soon as a change decides the
 * write. Without waiters (a process that does not listen for changes) it answers at once.
 * Undefined when the write is not the caller's.
 */
export async function awaitedWriteStatus(
  read: () => Promise<SubmissionStatusRow | undefined>,
  txId: string,
  waitMs: number,
  waiters: StatusWaiters | undefined,
): Promise<WriteStatus | undefined> {
  const row = await read();
  if (!row) return undefined;
  const status = writeStatus(txId, row, Date.now());
  if (status.status !== "pending" || waitMs <= 0 || !waiters) return status;
  await waiters.until(txId, waitMs);
  const after = await read();
  return after ? writeStatus(txId, after, Date.now()) : status;
}
