import pino from "pino";
import { describe, expect, it } from "vitest";
import { reconcileSubmissions } from "./reconcile";

const HASH = `0x${"ab".repeat(32)}`;

describe("reconcileSubmissions", () => {
  const run = async (rows: { id: string; user_op_hash: string | null; indexed: boolean }[]) => {
    const settled: string[] = [];
    const notSent: string[] = [];
    const calls: string[] = [];
    const result = await reconcileSubmissions({
      submissions: {
        unfinished: async () => rows,
        settleSubmitted: async (id) => void settled.push(id),
        settleNotSent: async (id) => void notSent.push(id),
      },
      idempotency: {
        settleCutShort: async () => {
          calls.push("keys");
          return { replayed: 0, released: 0 };
        },
      },
      instances: { forgetGone: async () => void calls.push("forget") },
      bundlerUrl: undefined,
      logger: pino({ level: "silent" }),
    });
    return { result, settled, notSent, calls };
  };

  it("settles a cut-off write the indexer saw as submitted, and one that named no operation as not sent", async () => {
    const { result, settled, notSent } = await run([
      { id: "seen", user_op_hash: HASH, indexed: true },
      { id: "unnamed", user_op_hash: null, indexed: false },
    ]);
    expect(settled).toEqual(["seen"]);
    expect(notSent).toEqual(["unnamed"]);
    expect(result).toMatchObject({ submitted: 1, failed: 1 });
  });

  it("settles the keys after the writes, then forgets the rows of gone processes", async () => {
    expect((await run([])).calls).toEqual(["keys", "forget"]);
  });
});
