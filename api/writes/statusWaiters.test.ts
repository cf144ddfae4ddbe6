import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type DecidedOf, StatusWaiters } from "./statusWaiters";

const A = `0x${"aa".repeat(32)}`;
const B = `0x${"bb".repeat(32)}`;
const FALLBACK_MS = 250;

/** A decidedOf whose answers the test gives: each call waits until `answer` settles it. */
function heldDecidedOf() {
  const calls: { txIds: string[]; settle: (decided: string[] | Error) => void }[] = [];
  const decidedOf: DecidedOf = (txIds) =>
    new Promise((resolve, reject) => {
      calls.push({
        txIds,
        settle: (decided) => (decided instanceof Error ? reject(decided) : resolve(new Set(decided))),
      });
    });
  return { decidedOf, calls };
}

/** Whether the promise has settled, after the microtasks queued now have run. */
function tracked(promise: Promise<void>) {
  const state = { done: false };
  void promise.then(() => {
    state.done = true;
  });
  return state;
}

describe("StatusWaiters", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("lets a waiter go when a check after a change finds its write decided", async () => {
    const decided = new Set<string>();
    const decidedOf = vi.fn(async () => decided);
    const waiters = new StatusWaiters({ decidedOf, fallbackMs: FALLBACK_MS, onError: () => {} });
    const waiting = tracked(waiters.until(A, 10_000));
    waiters.changed();
    await vi.advanceTimersByTimeAsync(0);
    expect(waiting.done).toBe(false);
    expect(decidedOf).toHaveBeenLastCalledWith([A]);
    decided.add(A);
    waiters.changed();
    await vi.advanceTimersByTimeAsync(0);
    expect(waiting.done).toBe(true);
    expect(waiters.size).toBe(0);
  });

  it("lets a waiter go at its timeout when its write stays undecided", async () => {
    const waiters = new StatusWaiters({ decidedOf: async () => new Set(), fallbackMs: FALLBACK_MS, onError: () => {} });
    const waiting = tracked(waiters.until(A, 1_000));
    await vi.advanceTimersByTimeAsync(999);
    expect(waiting.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(waiting.done).toBe(true);
    expect(waiters.size).toBe(0);
  });

  it("runs one check at a time: changes during a check make one more check, not one each", async () => {
    const { decidedOf, calls } = heldDecidedOf();
    const waiters = new StatusWaiters({ decidedOf, fallbackMs: FALLBACK_MS, onError: () => {} });
    const a = tracked(waiters.until(A, 10_000));
    const b = tracked(waiters.until(B, 10_000));
    waiters.changed();
    waiters.changed();
    waiters.changed();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.txIds).toEqual([A, B]);
    calls[0]!.settle([A]);
    await vi.advanceTimersByTimeAsync(0);
    expect(a.done).toBe(true);
    expect(b.done).toBe(false);
    // The changes that came during the first check: one re-check, of what is still waited on.
    expect(calls).toHaveLength(2);
    expect(calls[1]!.txIds).toEqual([B]);
    calls[1]!.settle([B]);
    await vi.advanceTimersByTimeAsync(0);
    expect(b.done).toBe(true);
    expect(calls).toHaveLength(2);
  });

  it("lets every waiter of one write go together, asking about the write once", async () => {
    const decidedOf = vi.fn(async (txIds: string[]) => new Set(txIds));
    const waiters = new StatusWaiters({ decidedOf, fallbackMs: FALLBACK_MS, onError: () => {} });
    const all = [1, 2, 3].map(() => tracked(waiters.until(A, 10_000)));
    expect(waiters.size).toBe(3);
    waiters.changed();
    await vi.advanceTimersByTimeAsync(0);
    expect(decidedOf).toHaveBeenCalledExactlyOnceWith([A]);
    expect(all.map((waiting) => waiting.done)).toEqual([true, true, true]);
    expect(waiters.size).toBe(0);
  });

  it("releases every waiter at once on releaseAll, and later ones do not wait", async () => {
    const decidedOf = vi.fn(async () => new Set<string>());
    const waiters = new StatusWaiters({ decidedOf, fallbackMs: FALLBACK_MS, onError: () => {} });
    const a = tracked(waiters.until(A, 10_000));
    const b = tracked(waiters.until(B, 10_000));
    waiters.releaseAll();
    await vi.advanceTimersByTimeAsync(0);
    expect([a.done, b.done]).toEqual([true, true]);
    expect(waiters.size).toBe(0);
    const late = tracked(waiters.until(A, 10_000));
    await vi.advanceTimersByTimeAsync(0);
    expect(late.done).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    expect(decidedOf).not.toHaveBeenCalled();
  });

  it("checks on its fallback interval while anyone waits, and stops when nobody does", async () => {
    const decided = new Set<string>();
    const decidedOf = vi.fn(async () => decided);
    const waiters = new StatusWaiters({ decidedOf, fallbackMs: FALLBACK_MS, onError: () => {} });
    const waiting = tracked(waiters.until(A, 10_000));
    await vi.advanceTimersByTimeAsync(FALLBACK_MS);
    expect(decidedOf).toHaveBeenCalledTimes(1);
    decided.add(A);
    await vi.advanceTimersByTimeAsync(FALLBACK_MS);
    expect(decidedOf).toHaveBeenCalledTimes(2);
    expect(waiting.done).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(FALLBACK_MS * 10);
    expect(decidedOf).toHaveBeenCalledTimes(2);
    // Nobody waits: a change asks nothing.
    waiters.changed();
    expect(decidedOf).toHaveBeenCalledTimes(2);
  });

  it("reports a failed check to onError and keeps the waiters for the next check", async () => {
    const { decidedOf, calls } = heldDecidedOf();
    const onError = vi.fn();
    const waiters = new StatusWaiters({ decidedOf, fallbackMs: FALLBACK_MS, onError });
    const waiting = tracked(waiters.until(A, 10_000));
    waiters.changed();
    const failure = new Error("connection terminated");
    calls[0]!.settle(failure);
    await vi.advanceTimersByTimeAsync(0);
    expect(onError).toHaveBeenCalledExactlyOnceWith(failure);
    expect(waiting.done).toBe(false);
    expect(waiters.size).toBe(1);
    waiters.changed();
    expect(calls).toHaveLength(2);
    calls[1]!.settle([A]);
    await vi.advanceTimersByTimeAsync(0);
    expect(waiting.done).toBe(true);
  });
});
