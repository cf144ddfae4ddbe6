import { describe, expect, it, vi } from "vitest";
import type { SubmissionStatusRow } from "../db/submissions";
import { awaitedWriteStatus, INDEXING_MARGIN_MS, writeStatus } from "./status";
import type { StatusWaiters } from "./statusWaiters";

const TX_ID = `0x${"11".repeat(32)}`;
const validUntil = new Date("2026-05-01T12:00:00Z");
const before = validUntil.getTime() - 1_000;

const row = (fields: Partial<SubmissionStatusRow>): SubmissionStatusRow => ({
  state: "submitted",
  tx_hash: "0xsent",
  error: null,
  valid_until: validUntil,
  kind: "buy",
  success: null,
  block_number: null,
  timestamp: null,
  indexed_tx_hash: null,
  revert_reason: null,
  ...fields,
});

describe("writeStatus", () => {
  it("is pending while the indexer has not seen the operation, with the bundle transaction the bundler named", () => {
    expect(writeStatus(TX_ID, row({}), before)).toEqual({
      txId: TX_ID,
      status: "pending",
      txHash: "0xsent",
      blockNumber: null,
      confirmedAt: null,
    });
  });

  it("is confirmed once indexed as successful, with the indexed block, time and transaction", () => {
    const indexed = row({ success: true, block_number: "42", timestamp: "1767225600", indexed_tx_hash: "0xmined" });
    expect(writeStatus(TX_ID, indexed, before)).toEqual({
      txId: TX_ID,
      status: "confirmed",
      txHash: "0xmined",
      blockNumber: 42,
      confirmedAt: "2026-01-01T00:00:00.000Z",
    });
  });

  it("is failed with the revert reason when the operation reverted on chain", () => {
    const reverted = row({ success: false, block_number: "7", revert_reason: "SlippageExceeded" });
    expect(writeStatus(TX_ID, reverted, before)).toMatchObject({
      status: "failed",
      blockNumber: 7,
      error: "reverted (SlippageExceeded)",
    });
    expect(writeStatus(TX_ID, row({ success: false, block_number: "7" }), before).error).toBe("reverted");
  });

  it("is failed with the recorded error when the bundler refused it", () => {
    expect(writeStatus(TX_ID, row({ state: "failed", error: "bundler_unavailable" }), before)).toMatchObject({
      status: "failed",
      error: "bundler_unavailable",
    });
    expect(writeStatus(TX_ID, row({ state: "failed" }), before).error).toBe("refused");
  });

  it("expires once the sponsorship's deadline and the indexing margin have passed", () => {
    const deadline = validUntil.getTime() + INDEXING_MARGIN_MS;
    expect(writeStatus(TX_ID, row({}), deadline).status).toBe("pending");
    expect(writeStatus(TX_ID, row({}), deadline + 1)).toMatchObject({ status: "failed", error: "expired" });
  });

  it("believes the indexer over the clock: an operation indexed late is still confirmed", () => {
    const late = row({ success: true, block_number: "1", timestamp: "0" });
    expect(writeStatus(TX_ID, late, validUntil.getTime() + 10 * INDEXING_MARGIN_MS).status).toBe("confirmed");
  });
});

describe("awaitedWriteStatus", () => {
  // Far from its deadline: pending while not indexed.
  const pending = row({ valid_until: new Date(Date.now() + 600_000) });
  const confirmed = row({ success: true, block_number: "7", timestamp: "1777636800", indexed_tx_hash: "0xmined" });
  const waiters = () => ({ until: vi.fn(async () => {}) });

  it("holds a pending write up to waitMs, then answers what it reads after the wait", async () => {
    const read = vi.fn().mockResolvedValueOnce(pending).mockResolvedValueOnce(confirmed);
    const held = waiters();
    const status = await awaitedWriteStatus(read, TX_ID, 5_000, held as unknown as StatusWaiters);
    expect(held.until).toHaveBeenCalledExactlyOnceWith(TX_ID, 5_000);
    expect(read).toHaveBeenCalledTimes(2);
    expect(status).toMatchObject({ status: "confirmed", blockNumber: 7, txHash: "0xmined" });
  });

  it("answers at once when the write is decided, waitMs is 0, or nothing can wait", async () => {
    const held = waiters();
    expect(
      await awaitedWriteStatus(async () => confirmed, TX_ID, 5_000, held as unknown as StatusWaiters),
    ).toMatchObject({ status: "confirmed" });
    expect(await awaitedWriteStatus(async () => pending, TX_ID, 0, held as unknown as StatusWaiters)).toMatchObject({
      status: "pending",
    });
    expect(await awaitedWriteStatus(async () => pending, TX_ID, 5_000, undefined)).toMatchObject({ status: "pending" });
    expect(held.until).not.toHaveBeenCalled();
  });

  it("is undefined, without waiting, for a write that is not the caller's", async () => {
    const held = waiters();
    expect(await awaitedWriteStatus(async () => undefined, TX_ID, 5_000, held as unknown as StatusWaiters)).toBe(
      undefined,
    );
    expect(held.until).not.toHaveBeenCalled();
  });
});
