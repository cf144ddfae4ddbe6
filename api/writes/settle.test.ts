import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import { failureOfResend, lostWriteAction, settleLostWrites, startWriteSettler } from "./settle";

const HASH = `0x${"cd".repeat(32)}`;
const OPERATION = { sender: "0x01", nonce: "0x0" } as never;

describe("lostWriteAction", () => {
  it("waits while the bundler holds the operation, and sends it again once the bundler has lost it", () => {
    for (const status of ["not_submitted", "submitted", "included", "queued"])
      expect(lostWriteAction({ status, transactionHash: null })).toBe("wait");
    for (const status of ["not_found", "rejected"])
      expect(lostWriteAction({ status, transactionHash: null })).toBe("resend");
    expect(lostWriteAction(null)).toBe("resend");
  });
});

describe("failureOfResend", () => {
  it("fails a write only when the resend is refused, since then no one holds it", () => {
    expect(failureOfResend({ kind: "accepted" })).toBeNull();
    expect(failureOfResend({ kind: "known" })).toBeNull();
    expect(
      failureOfResend({ kind: "refused", reason: "UserOperation reverted during simulation with reason: 0x" }),
    ).toBeNull();
    expect(failureOfResend({ kind: "refused", reason: "AA32 paymaster expired" })).toBe(
      "dropped by the bundler, and refused when sent again: AA32 paymaster expired",
    );
  });
});

describe("settleLostWrites", () => {
  const run = async (status: string, sendAnswer: () => unknown, spent: () => boolean = () => false) => {
    const failed: [string, string][] = [];
    const sent: unknown[] = [];
    const bundler = {
      request: (async ({ method, params }: { method: string; params: unknown[] }) => {
        if (method === "pimlico_getUserOperationStatus") return { status, transactionHash: null };
        sent.push(params[0]);
        return sendAnswer();
      }) as never,
    };
    const submissions = {
      unindexed: async () => [{ id: "s1", user_op_hash: HASH, user_op: OPERATION }],
      failed: async (id: string, error: string) => void failed.push([id, error]),
    };
    const nonceSpent = async () => spent();
    const result = await settleLostWrites({ submissions, bundler, nonceSpent, logger: pino({ level: "silent" }) });
    return { result, failed, sent };
  };

  it("sends a lost operation again, as it was signed", async () => {
    expect(await run("not_found", () => HASH)).toEqual({
      result: { resent: 1, dropped: 0 },
      failed: [],
      sent: [OPERATION],
    });
  });

  it("leaves alone an operation the bundler holds", async () => {
    expect(await run("submitted", () => HASH)).toEqual({ result: { resent: 0, dropped: 0 }, failed: [], sent: [] });
  });

  it("fails a lost operation the bundler refuses, and not one whose nonce is spent", async () => {
    const refused = await run("not_found", () => {
      throw new Error("AA21 didn't pay prefund");
    });
    expect(refused.result).toEqual({ resent: 0, dropped: 1 });
    expect(refused.failed).toEqual([["s1", expect.stringContaining("AA21")]]);
    const included = await run("not_found", () => {
      throw new Error("AA25 invalid account nonce");
    });
    expect(included.result).toEqual({ resent: 0, dropped: 0 });
  });

  it("leaves alone an operation whose nonce the EntryPoint spent, though the bundler no longer knows it", async () => {
    expect(
      await run(
        "not_found",
        () => HASH,
        () => true,
      ),
    ).toEqual({
      result: { resent: 0, dropped: 0 },
      failed: [],
      sent: [],
    });
  });

  it("does not fail an operation whose resend is refused once its nonce is found spent, nor after a passing refusal", async () => {
    let checks = 0;
    const includedMeanwhile = await run(
      "not_found",
      () => {
        throw new Error("AA21 didn't pay prefund");
      },
      () => checks++ > 0,
    );
    expect(includedMeanwhile.result).toEqual({ resent: 0, dropped: 0 });
    const passing = await run("not_found", () => {
      throw new Error("UserOperation reverted during simulation with reason: 0x");
    });
    expect(passing.result).toEqual({ resent: 0, dropped: 0 });
    expect(passing.failed).toEqual([]);
  });
});

describe("startWriteSettler", () => {
  it("reconciles what gone processes left on every pass, without a bundler too, and goes on after a failed pass", async () => {
    let passes = 0;
    const settler = startWriteSettler({
      submissions: { unindexed: async () => [], failed: async () => {} },
      reconcile: async () => {
        passes++;
        if (passes === 1) throw new Error("database unreachable");
      },
      bundlerUrl: undefined,
      publicClient: undefined,
      logger: pino({ level: "silent" }),
      intervalMs: 5,
    });
    await vi.waitUntil(() => passes >= 3);
    await settler.stop();
    const stoppedAt = passes;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(passes).toBe(stoppedAt);
  });
});
