// Views of posts, counted without a row lock per read: each API process adds views up in memory
// and writes them every `flushMs` in one statement for all the posts viewed meanwhile. A process
// answers with the stored count plus its own unwritten views, so a reader's own reads always show;
// other processes see them once flushed, up to `flushMs` later. A failed write keeps its views for
// the next flush; the views of a process that is killed are lost, at most `flushMs` of them.

export type ViewWriter = (counts: ReadonlyMap<string, number>) => Promise<void>;

export class ViewCounter {
  private pending = new Map<string, number>();
  /** Views being written: still counted in answers until the write has committed. */
  private writing = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly options: {
      flushMs: number;
      write: ViewWriter;
      /** After views were written: answers built on the stored count before it are stale now. */
      onWritten?: () => void;
      onError: (error: unknown) => void;
    },
  ) {}

  /** Counts one view of `id`; answers the views not yet written for it, this one included. */
  count(id: string): number {
    this.pending.set(id, (this.pending.get(id) ?? 0) + 1);
    return this.unwritten(id);
  }

  unwritten(id: string): number {
    return (this.pending.get(id) ?? 0) + (this.writing.get(id) ?? 0);
  }

  start() {
    this.timer ??= setInterval(() => void this.flush(), this.options.flushMs);
    this.timer.unref();
  }

  /** Stops the timer and writes what is left. */
  async stop() {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** Writes the views counted so far; one write at a time. */
  async flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.pending.size === 0) return;
    this.writing = this.pending;
    this.pending = new Map();
    this.flushing = this.options
      .write(this.writing)
      .then(() => this.options.onWritten?.())
      .catch((error) => {
        for (const [id, views] of this.writing) this.pending.set(id, (this.pending.get(id) ?? 0) + views);
        this.options.onError(error);
      })
      .finally(() => {
        this.writing = new Map();
        this.flushing = undefined;
      });
    return this.flushing;
  }
}
