import { describe, expect, it } from "vitest";
import { ViewCounter } from "./viewCounter";

function counterWithStore(options: { failing?: () => boolean; onWritten?: () => void } = {}) {
  const stored = new Map<string, number>();
  const writes: number[] = [];
  let release: (() => void) | undefined;
  const counter = new ViewCounter({
    flushMs: 1_000,
    write: async (counts) => {
      await new Promise<void>((resolve) => (release = resolve));
      if (options.failing?.()) throw new Error("database down");
      writes.push(counts.size);
      for (const [id, views] of counts) stored.set(id, (stored.get(id) ?? 0) + views);
    },
    onWritten: options.onWritten,
    onError: () => {},
  });
  const finishWrite = async (flush: Promise<void>) => {
    await Promise.resolve();
    release?.();
    await flush;
  };
  return { counter, stored, writes, finishWrite };
}

describe("ViewCounter", () => {
  it("adds views up in memory and writes every post viewed in one write", async () => {
    const { counter, stored, writes, finishWrite } = counterWithStore();
    expect(counter.count("a")).toBe(1);
    expect(counter.count("a")).toBe(2);
    counter.count("b");
    await finishWrite(counter.flush());
    expect(writes).toEqual([2]);
    expect(Object.fromEntries(stored)).toEqual({ a: 2, b: 1 });
    expect(counter.unwritten("a")).toBe(0);
  });

  it("keeps counting views in answers while they are being written", async () => {
    const { counter, finishWrite } = counterWithStore();
    counter.count("a");
    const flush = counter.flush();
    expect(counter.count("a")).toBe(2);
    await finishWrite(flush);
    expect(counter.unwritten("a")).toBe(1);
  });

  it("keeps the views of a failed write for the next one", async () => {
    let down = true;
    const { counter, stored, finishWrite } = counterWithStore({ failing: () => down });
    counter.count("a");
    counter.count("a");
    await finishWrite(counter.flush());
    expect(counter.unwritten("a")).toBe(2);
    down = false;
    counter.count("a");
    await finishWrite(counter.flush());
    expect(stored.get("a")).toBe(3);
  });

  it("writes nothing when nothing was viewed", async () => {
    const { counter, writes } = counterWithStore();
    await counter.flush();
    expect(writes).toEqual([]);
  });

  it("says when views were written, and only then", async () => {
    let written = 0;
    const { counter, finishWrite } = counterWithStore({ onWritten: () => written++ });
    counter.count("a");
    await finishWrite(counter.flush());
    expect(written).toBe(1);
    await counter.flush();
    expect(written).toBe(1);
  });

  it("does not say so when the write failed", async () => {
    let written = 0;
    const { counter, finishWrite } = counterWithStore({ failing: () => true, onWritten: () => written++ });
    counter.count("a");
    await finishWrite(counter.flush());
    expect(written).toBe(0);
    expect(counter.unwritten("a")).toBe(1);
  });
});
