// What a user is told of a sponsored write: `confirmed` and reverted `failed` come only from the
// indexer; a refusal from the record; `expired` once the sponsorship can no longer be included.
import type { SubmissionStatusRow } from "../db/submissions";
import { isoFromSeconds } from "../format";

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
