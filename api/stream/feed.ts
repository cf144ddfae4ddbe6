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
  /** Called after this process appended events. */
  onAppended: () => void;
}): StreamFeed {
  let syncing = false;
  let syncAgain = false;

  const sync = async () => {
    do {
      syncAgain = false;
      const appended = await options.log.syncTrades({ reorgDepth: options.reorgDepth, batchSize: 5_000 });
      if (appended > 0) options.onAppended();
    } while (syncAgain);
  };

  const indexerChanged = () => {
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
