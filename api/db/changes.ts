// One LISTEN connection per API process. Ponder notifies `<views>_live_query` whenever it commits
// indexed blocks (the payload lists the tables written); the API notifies `api_changes` when it
// writes its own tables. Readers of either react here instead of polling.
import pg from "pg";
import type { Logger } from "pino";

export type ChangeListener = {
  /** False while the connection is down: anything kept on the strength of notifications is suspect. */
  readonly connected: boolean;
  close: () => Promise<void>;
};

export const indexerChannel = (viewsSchema: string) => `${viewsSchema}_live_query`;
export const API_CHANNEL = "api_changes";

export function listenForChanges(options: {
  databaseUrl: string;
  channels: string[];
  onChange: (channel: string, payload: string) => void;
  /** Called on every (re)connection and loss, since notifications may have been missed. */
  onReset: () => void;
  logger: Logger;
}): ChangeListener {
  let client: pg.Client | undefined;
  let connected = false;
  let closed = false;
  let retryMs = 100;

  const connect = async () => {
    if (closed) return;
    const next = new pg.Client({
      connectionString: options.databaseUrl,
      application_name: "prediction-market-api-listener",
    });
    next.on("notification", (message) => options.onChange(message.channel, message.payload ?? ""));
    next.on("error", (error) => options.logger.warn({ err: error }, "change listener connection error"));
    next.on("end", () => {
      if (client !== next) return;
      connected = false;
      options.onReset();
      if (!closed) setTimeout(() => void connect(), retryMs);
    });
    try {
      await next.connect();
      for (const channel of options.channels) await next.query(`LISTEN "${channel}"`);
      client = next;
      connected = true;
      retryMs = 100;
      options.onReset();
    } catch (error) {
      options.logger.warn({ err: error, retryMs }, "change listener cannot connect; retrying");
      await next.end().catch(() => {});
      retryMs = Math.min(retryMs * 2, 5_000);
      if (!closed) setTimeout(() => void connect(), retryMs);
    }
  };
  void connect();

  return {
    get connected() {
      return connected;
    },
    async close() {
      closed = true;
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}
