// Keeps the stream log in step with the indexer: whenever Ponder commits blocks, new trades are
// announced and reorged ones retracted; events past the retention window are pruned. Every API
// process runs this; the log's advisory lock makes concurrent runs take turns.
import type { Logger } from "pino";
import type { StreamLog } from "../db/streamLog";

const PRUNE_EVERY_MS = 10 * 60_000;

export type StreamFeed = {
  /** The indexer committed something (or notifications may have been missed): compare again. */
  indexerChanged: () => void;
  close: () => void;
};

export function startStreamFeed(options: {
  log: StreamLog;
  logger: Logger;
  reorgDepth: number;
  retentionMs: number;
  /** Called after this process appended events, with when the change behind them was announced (performance.now()). */
  onAppended: (announcedAt: number) => void;
}): StreamFeed {
  let syncing = false;
  let syncAgain = false;
  let announcedAt: number | undefined;

  const sync = async () => {
    do {
      syncAgain = false;
      const since = announcedAt ?? performance.now();
      announcedAt = undefined;
      const appended = await options.log.syncTrades({ reorgDepth: options.reorgDepth, batchSize: 5_000 });
      if (appended > 0) options.onAppended(since);
    } while (syncAgain);
  };

  const indexerChanged = () => {
    announcedAt ??= performance.now();
    if (syncing) {
      syncAgain = true;
      return;
    }
    syncing = true;
    void sync()
      .catch((error) => options.logger.warn({ err: error }, "stream: syncing trades failed; next change retries"))
      .finally(() => {
        syncing = false;
      });
  };

  const prune = () =>
    void options.log
      .prune(options.retentionMs)
      .then((deleted) => deleted > 0 && options.logger.info({ deleted }, "stream: pruned old events"))
      .catch((error) => options.logger.warn({ err: error }, "stream: pruning failed"));
  const pruneTimer = setInterval(prune, PRUNE_EVERY_MS);
  pruneTimer.unref();
  prune();
  indexerChanged();

  return {
    indexerChanged,
    close: () => clearInterval(pruneTimer),
  };
}
