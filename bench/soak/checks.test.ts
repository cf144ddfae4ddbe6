import { describe, expect, it } from "vitest";
import { type AcceptedWrite, countsOf, failedChecks, historyGaps, mergeStreamGaps, streamGaps } from "./checks";
import { Receipts, TradeIds } from "./receipts";

const write = (txId: string, status: AcceptedWrite["status"], side: AcceptedWrite["side"] = "buy"): AcceptedWrite => ({
  txId,
  side,
  status,
  acceptedAfterMs: 1,
});

const clientWith = (ids: TradeIds, received: string[]) => {
  const receipts = new Receipts(ids);
  for (const id of received) receipts.add(id);
  return receipts;
};

const passing = {
  writes: [write("0xa", "confirmed"), write("0xb", "failed")],
  history: { missing: [], failedButTraded: [], repeated: [], untold: [] },
  stream: { clients: 2, complete: 2, missing: 0, duplicated: 0, unexpected: [] },
  outOfOrder: 0,
  inconsistent: 0,
  balanceDifferences: [],
};

describe("the soak's history check", () => {
  it("finds a confirmed write without a trade, a failed write with one, and a write with two", () => {
    const writes = [
      write("0xA", "confirmed"),
      write("0xb", "confirmed"),
      write("0xc", "failed"),
      write("0xd", "confirmed"),
    ];
    const trades = [
      { id: "t1", userOpHash: "0xa" },
      { id: "t3", userOpHash: "0xc" },
      { id: "t4", userOpHash: "0xd" },
      { id: "t5", userOpHash: "0xd" },
    ];
    expect(historyGaps(writes, trades)).toEqual({
      missing: ["0xb"],
      failedButTraded: ["0xc"],
      repeated: ["0xd"],
      untold: [],
    });
  });

  it("names the trades of writes the API did not accept, and trades sent outside it", () => {
    const trades = [
      { id: "t1", userOpHash: "0xa" },
      { id: "t2", userOpHash: "0xe" },
      { id: "t3", userOpHash: null },
    ];
    expect(historyGaps([write("0xa", "confirmed")], trades).untold).toEqual(["t2", "t3"]);
  });
});

describe("the soak's stream check", () => {
  it("counts a client complete only with every expected trade exactly once", () => {
    const ids = new TradeIds();
    const gaps = streamGaps(
      ["t1", "t2"],
      [clientWith(ids, ["t1", "t2"]), clientWith(ids, ["t2"]), clientWith(ids, ["t1", "t2", "t2", "t2"])],
    );
    expect(gaps).toEqual({ clients: 3, complete: 1, missing: 1, duplicated: 2, unexpected: [] });
  });

  it("names trades no confirmed write made, and counts their repeats", () => {
    const ids = new TradeIds();
    const gaps = streamGaps(["t1"], [clientWith(ids, ["t1", "x", "x"]), clientWith(ids, ["t1", "x"])]);
    expect(gaps).toMatchObject({ complete: 1, duplicated: 1, unexpected: ["x"] });
  });

  it("adds up several processes' clients", () => {
    const part = { clients: 2, complete: 1, missing: 3, duplicated: 1, unexpected: ["x"] };
    expect(mergeStreamGaps([part, { ...part, unexpected: ["x", "y"] }])).toEqual({
      clients: 4,
      complete: 2,
      missing: 6,
      duplicated: 2,
      unexpected: ["x", "y"],
    });
  });
});

describe("the soak's receipts", () => {
  it("keep each client's counts apart under one numbering of trade ids", () => {
    const ids = new TradeIds();
    const a = clientWith(
      ids,
      Array.from({ length: 600 }, (_, i) => `t${i}`),
    );
    const b = clientWith(ids, ["t599", "t599"]);
    expect([a.countOf("t599"), b.countOf("t599"), b.countOf("t0"), b.countOf("never")]).toEqual([1, 2, 0, 0]);
    expect([...b.received()]).toEqual(["t599"]);
  });
});

describe("the soak's verdict", () => {
  it("passes with nothing pending, missing, repeated, out of order or different", () => {
    expect(failedChecks(passing)).toEqual([]);
  });

  it("fails on each kind of gap, one line each", () => {
    const failed = failedChecks({
      writes: [write("0xa", "pending")],
      history: { missing: ["0xb"], failedButTraded: ["0xc"], repeated: ["0xd"], untold: ["t9"] },
      stream: { clients: 2, complete: 1, missing: 1, duplicated: 0, unexpected: ["x"] },
      outOfOrder: 1,
      inconsistent: 1,
      balanceDifferences: ["USDC of 0x1: indexed 1, chain 2"],
    });
    expect(failed).toHaveLength(10);
    expect(failed[0]).toBe("1 accepted writes still pending");
    expect(failed.at(-1)).toContain("USDC of 0x1");
  });
});

describe("the soak's counts by reason", () => {
  it("lists the most frequent first, and says none for none", () => {
    expect(countsOf(["expired", "reverted", "reverted"])).toBe("reverted: 2, expired: 1");
    expect(countsOf([])).toBe("none");
  });
});
