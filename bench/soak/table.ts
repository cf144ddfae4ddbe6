// The soak's table: what the traders did, how long writes took, and each check with its verdict.
import { median, percentile, printTable } from "../stats";
import { type AcceptedWrite, countsOf, type HistoryGaps, type StreamGaps } from "./checks";
import type { PoolStatus } from "./listenerPool";
import type { SoakSettings } from "./settings";

export type SoakReport = {
  settings: SoakSettings;
  marketCount: number;
  writes: AcceptedWrite[];
  refusals: string[];
  /** The load average (1, 5, 15 min) and the API's CPU share over the trading time, read when the traders stopped. */
  loadAverage: number[];
  apiCpuShare: number;
  history: HistoryGaps;
  stream: PoolStatus & { gaps: StreamGaps };
  /** Seconds from the end of the last write to the stream check, and to the last comparison of the balances. */
  streamCheckedAfter: number;
  balancesComparedAfter: number;
  balanceDifferences: readonly string[];
};

const spread = (ms: number[]) =>
  ms.length === 0 ? "none" : `p50 ${median(ms).toFixed(0)} ms, p99 ${percentile(ms, 99).toFixed(0)} ms (${ms.length})`;

const sides = (writes: AcceptedWrite[]) =>
  `${writes.filter((w) => w.side === "buy").length} buys, ${writes.filter((w) => w.side === "sell").length} sells`;

const verdict = (passed: boolean) => (passed ? "ok" : "FAIL");

export function printSoakTable(report: SoakReport) {
  const { settings, writes, history, stream } = report;
  const { gaps } = stream;
  const confirmed = writes.filter((write) => write.status === "confirmed");
  const failed = writes.filter((write) => write.status === "failed");
  const pending = writes.filter((write) => write.status === "pending").length;
  const toConfirmed = (side: AcceptedWrite["side"]) =>
    spread(confirmed.filter((write) => write.side === side).map((write) => write.confirmedAfterMs!));
  const perSecond = (count: number) => (count / settings.seconds).toFixed(1);
  const load = report.loadAverage.map((value) => value.toFixed(2)).join(" ");
  printTable(
    `soak (${settings.traders} traders for ${settings.seconds} s across ${report.marketCount} markets, one API process, automine; ${settings.clients} stream clients; status followed with waitMs; load average ${load} when trading stopped)`,
    ["measure", "value", "check"],
    [
      ["writes accepted (200 with a txId)", `${writes.length} (${perSecond(writes.length)}/s; ${sides(writes)})`, ""],
      ["writes not accepted (side, status, code)", countsOf(report.refusals), ""],
      ["confirmed", `${confirmed.length} (${perSecond(confirmed.length)}/s; ${sides(confirmed)})`, ""],
      ["failed, by reason", countsOf(failed.map((write) => write.error ?? "?")), ""],
      [`pending ${settings.settleSeconds} s after trading stopped`, String(pending), verdict(pending === 0)],
      ["buy or sell -> answered 200", spread(writes.map((write) => write.acceptedAfterMs)), ""],
      ["buy -> confirmed", toConfirmed("buy"), ""],
      ["sell -> confirmed", toConfirmed("sell"), ""],
      [
        "confirmed writes missing from the trades history",
        `${history.missing.length} (failed with a trade: ${history.failedButTraded.length}; more than one trade: ${history.repeated.length})`,
        verdict(history.missing.length + history.failedButTraded.length + history.repeated.length === 0),
      ],
      [
        "trades of writes answered with an error (not accepted)",
        String(history.untold.length),
        verdict(history.untold.length === 0),
      ],
      [
        "stream clients with every trade of the history exactly once",
        `${gaps.complete} of ${gaps.clients} (${gaps.missing} missing, ${gaps.duplicated} repeated, ${gaps.unexpected.length} not in the history); checked ${report.streamCheckedAfter.toFixed(1)} s after the last write ended`,
        verdict(gaps.complete === gaps.clients && gaps.unexpected.length === 0),
      ],
      [
        "stream events out of order / differing between clients",
        `${stream.outOfOrder} / ${stream.inconsistent}`,
        verdict(stream.outOfOrder + stream.inconsistent === 0),
      ],
      ["stream clients reconnected (Last-Event-ID) / refused", `${stream.reconnects} / ${stream.refused}`, ""],
      [
        "indexed balances different from the chain's",
        `${report.balanceDifferences.length} (${settings.traders} wallets' tokens in every outcome and USDC, markets' state; last compared ${report.balancesComparedAfter.toFixed(1)} s after the last write ended)`,
        verdict(report.balanceDifferences.length === 0),
      ],
      ["API CPU while trading", `${(report.apiCpuShare * 100).toFixed(0)}% of one core`, ""],
    ],
  );
}
