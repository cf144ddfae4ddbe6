// The soak's verdicts, as pure functions of what it recorded: every accepted write ended, every
// confirmed one is in the history (and no failed or refused one is), and every stream client
// received every trade of the history exactly once and nothing else.

export type WriteStatus = "pending" | "confirmed" | "failed";

/** A write the API accepted (200 with a txId), as its trader last saw it. */
export type AcceptedWrite = {
  txId: string;
  side: "buy" | "sell";
  status: WriteStatus;
  /** Why it failed, as GET /api/trade/status said. */
  error?: string;
  /** From sending the request to its answer. */
  acceptedAfterMs: number;
  /** From sending the request to reading `confirmed`. */
  confirmedAfterMs?: number;
};

/** A trade of the soak's traders as the history (the indexed views) holds it. */
export type IndexedTrade = { id: string; userOpHash: string | null };

export type HistoryGaps = {
  /** Confirmed writes without a trade in the history. */
  missing: string[];
  /** Writes that failed yet have a trade in the history. */
  failedButTraded: string[];
  /** Confirmed writes with more than one trade (a buy or a sell makes exactly one). */
  repeated: string[];
  /** Trades of no accepted write: the API answered their write with an error, yet it traded. */
  untold: string[];
};

export function historyGaps(writes: readonly AcceptedWrite[], trades: readonly IndexedTrade[]): HistoryGaps {
  const tradesByWrite = new Map<string, number>();
  for (const trade of trades) {
    const txId = trade.userOpHash?.toLowerCase() ?? trade.id;
    tradesByWrite.set(txId, (tradesByWrite.get(txId) ?? 0) + 1);
  }
  const tradesOf = (write: AcceptedWrite) => tradesByWrite.get(write.txId.toLowerCase()) ?? 0;
  const accepted = new Set(writes.map((write) => write.txId.toLowerCase()));
  const confirmed = writes.filter((write) => write.status === "confirmed");
  return {
    missing: confirmed.filter((write) => tradesOf(write) === 0).map((write) => write.txId),
    failedButTraded: writes.filter((w) => w.status === "failed" && tradesOf(w) > 0).map((w) => w.txId),
    repeated: confirmed.filter((write) => tradesOf(write) > 1).map((write) => write.txId),
    untold: trades.filter((trade) => !accepted.has(trade.userOpHash?.toLowerCase() ?? "")).map((trade) => trade.id),
  };
}

/** What the check needs of one client's receipts (receipts.ts). */
export type ClientReceipts = { countOf(id: string): number; received(): Iterable<string> };

export type StreamGaps = {
  clients: number;
  /** Clients that received every expected trade exactly once. */
  complete: number;
  /** Expected trades a client never received, summed over clients. */
  missing: number;
  /** Receipts of a trade after its first, summed over clients. */
  duplicated: number;
  /** Trades received that are not in the history, by id. */
  unexpected: string[];
};

export function streamGaps(expected: readonly string[], clients: readonly ClientReceipts[]): StreamGaps {
  const wanted = new Set(expected);
  const unexpected = new Set<string>();
  const gaps: StreamGaps = { clients: clients.length, complete: 0, missing: 0, duplicated: 0, unexpected: [] };
  for (const client of clients) {
    let missing = 0;
    let duplicated = 0;
    for (const id of wanted) {
      const count = client.countOf(id);
      if (count === 0) missing += 1;
      else duplicated += count - 1;
    }
    for (const id of client.received()) {
      if (wanted.has(id)) continue;
      unexpected.add(id);
      duplicated += client.countOf(id) - 1;
    }
    if (missing === 0 && duplicated === 0) gaps.complete += 1;
    gaps.missing += missing;
    gaps.duplicated += duplicated;
  }
  gaps.unexpected = [...unexpected];
  return gaps;
}

/** The gaps of several processes' clients as one. */
export const mergeStreamGaps = (parts: readonly StreamGaps[]): StreamGaps => ({
  clients: parts.reduce((sum, part) => sum + part.clients, 0),
  complete: parts.reduce((sum, part) => sum + part.complete, 0),
  missing: parts.reduce((sum, part) => sum + part.missing, 0),
  duplicated: parts.reduce((sum, part) => sum + part.duplicated, 0),
  unexpected: [...new Set(parts.flatMap((part) => part.unexpected))],
});

/** "reverted (x): 3, expired: 1" — counts of each value, most frequent first; "none" for none. */
export function countsOf(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  if (counts.size === 0) return "none";
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([value, count]) => `${value}: ${count}`)
    .join(", ");
}

export type SoakFindings = {
  writes: readonly AcceptedWrite[];
  history: HistoryGaps;
  stream: StreamGaps;
  /** Stream clients' events out of order (an id not above the one before). */
  outOfOrder: number;
  /** Events whose text differed between clients under the same event id. */
  inconsistent: number;
  balanceDifferences: readonly string[];
};

/** Each check the soak failed, said in a line; empty when it passed. */
export function failedChecks(findings: SoakFindings): string[] {
  const failed: string[] = [];
  const pending = findings.writes.filter((write) => write.status === "pending").length;
  const { history, stream } = findings;
  if (pending > 0) failed.push(`${pending} accepted writes still pending`);
  if (history.missing.length > 0) failed.push(`${history.missing.length} confirmed writes missing from the history`);
  if (history.failedButTraded.length > 0)
    failed.push(`${history.failedButTraded.length} failed writes have a trade in the history`);
  if (history.repeated.length > 0) failed.push(`${history.repeated.length} writes with more than one trade`);
  if (history.untold.length > 0)
    failed.push(`${history.untold.length} trades from writes the API answered with an error (not accepted)`);
  if (stream.complete < stream.clients)
    failed.push(
      `${stream.clients - stream.complete} of ${stream.clients} stream clients incomplete (${stream.missing} trades missing, ${stream.duplicated} repeated)`,
    );
  if (stream.unexpected.length > 0) failed.push(`${stream.unexpected.length} streamed trades not in the history`);
  if (findings.outOfOrder > 0) failed.push(`${findings.outOfOrder} stream events out of order`);
  if (findings.inconsistent > 0) failed.push(`${findings.inconsistent} stream events differing between clients`);
  if (findings.balanceDifferences.length > 0)
    failed.push(`${findings.balanceDifferences.length} balance differences, e.g. ${findings.balanceDifferences[0]}`);
  return failed;
}
