// Holds status requests that asked to wait (`GET /api/trade/status/{txId}?waitMs=`) until their
// write is decided. One query per change asks about every write waited on, instead of one request
// per client every few milliseconds: polled at 20 ms by 200 writers, the status route took more of
// the machine than the writes themselves (bench/README.md, "Writes").

/** Asks which of the given user operation hashes are decided (confirmed or failed): the decided ones. */
export type DecidedOf = (txIds: string[]) => Promise<Set<string>>;

type Waiter = { resolve: () => void; timer: NodeJS.Timeout };

export class StatusWaiters {
  private readonly waiting = new Map<string, Set<Waiter>>();
  private checking = false;
  private checkAgain = false;
  private fallback: NodeJS.Timeout | undefined;
  /** After releaseAll: a request still arriving while the server drains must not hold it up. */
  private released = false;

  constructor(
    private readonly options: {
      decidedOf: DecidedOf;
      /** How often the waited writes are checked without a change notice (one may be missed). */
      fallbackMs: number;
      onError: (error: unknown) => void;
    },
  ) {}

  /** How many requests are waiting now. */
  get size(): number {
    let count = 0;
    for (const waiters of this.waiting.values()) count += waiters.size;
    return count;
  }

  /**
   * Resolves once a check finds `txId` decided, or after `timeoutMs`, whichever is first; never
   * rejects. The caller reads the status itself afterwards. At once after releaseAll.
   */
  until(txId: string, timeoutMs: number): Promise<void> {
    if (this.released) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter: Waiter = {
        resolve: () => {
          clearTimeout(waiter.timer);
          this.remove(txId, waiter);
          resolve();
        },
        timer: setTimeout(() => waiter.resolve(), timeoutMs),
      };
      const waiters = this.waiting.get(txId) ?? new Set();
      waiters.add(waiter);
      this.waiting.set(txId, waiters);
      this.fallback ??= setInterval(() => this.changed(), this.options.fallbackMs);
    });
  }

  /** Something a status reads from changed (the indexer committed, or a write was settled): check the waited writes. */
  changed(): void {
    if (this.waiting.size === 0) return;
    if (this.checking) {
      this.checkAgain = true;
      return;
    }
    this.checking = true;
    void this.check();
  }

  /**
   * Lets every waiting request go, and any later one not wait (shutdown): each answers with the
   * status it reads then.
   */
  releaseAll(): void {
    this.released = true;
    for (const waiters of [...this.waiting.values()]) for (const waiter of [...waiters]) waiter.resolve();
  }

  private async check(): Promise<void> {
    try {
      do {
        this.checkAgain = false;
        const decided = await this.options.decidedOf([...this.waiting.keys()]);
        for (const txId of decided) for (const waiter of [...(this.waiting.get(txId) ?? [])]) waiter.resolve();
      } while (this.checkAgain && this.waiting.size > 0);
    } catch (error) {
      this.options.onError(error);
    } finally {
      this.checking = false;
    }
  }

  private remove(txId: string, waiter: Waiter): void {
    const waiters = this.waiting.get(txId);
    if (!waiters) return;
    waiters.delete(waiter);
    if (waiters.size > 0) return;
    this.waiting.delete(txId);
    if (this.waiting.size === 0 && this.fallback) {
      clearInterval(this.fallback);
      this.fallback = undefined;
    }
  }
}
