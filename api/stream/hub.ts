// Fans the stream log out to this process's SSE clients. The hub reads the log past its head
// whenever told that events were appended, encodes each batch once per distinct filter, and
// writes it to every caught-up client. A client resuming with Last-Event-ID first reads the
// events it missed from the log, then joins the live fan-out without a gap or a repeat.
import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Logger } from "pino";
import type { StreamEventRow, StreamEventType, StreamLog } from "../db/streamLog";
import { connectedFrame, eventFrame, PING_FRAME, shutdownFrame } from "./frames";

/** Waits between tries to read the log for a client being caught up while the database is away. */
const CATCH_UP_FIRST_RETRY_MS = 250;
const CATCH_UP_LAST_RETRY_MS = 5_000;

export type StreamFilter = { types: ReadonlySet<StreamEventType>; marketSlug?: string };

type Client = {
  id: string;
  res: ServerResponse;
  /** Where event frames go once the headers are out (see attach). */
  socket: Socket;
  filter: StreamFilter;
  filterKey: string;
  /** The last sequence number this client has been given (or has skipped by its filter). */
  cursor: number;
  /** False while the client is reading missed events from the log. */
  live: boolean;
  closed: boolean;
};

export type StreamHubOptions = {
  log: StreamLog;
  logger: Logger;
  /** Interval of the `: ping` comment line. */
  pingMs: number;
  /** A client still holding more unsent output than this when more comes is dropped. */
  maxBufferedBytes: number;
  /** Events read from the log per query. */
  pageSize: number;
  /** Longest stretch of a fan-out before it pauses for the event loop to serve other work, in ms. */
  fanoutSliceMs: number;
  /** Told how long each fan-out of a batch to every client took, in seconds. */
  onFanout?: (seconds: number) => void;
  /** Told how long events waited, from the indexer's announcement to the start of their fan-out, in seconds. */
  onDelay?: (seconds: number) => void;
};

export class StreamHub {
  private readonly clients = new Set<Client>();
  /** The last sequence number read from the log and fanned out. */
  private head = 0;
  private pumping = false;
  private pumpAgain = false;
  /** When the oldest change not yet fanned out was announced (performance.now()). */
  private waitingSince: number | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
  private droppedSlow = 0;
  private closed = false;
  /** Set when the process shuts down: the base of the reconnection delay given to each client. */
  private retryMs: number | undefined;

  constructor(private readonly options: StreamHubOptions) {}

  async start(): Promise<void> {
    this.head = await this.options.log.head();
    this.pingTimer = setInterval(() => this.ping(), this.options.pingMs);
    this.pingTimer.unref();
  }

  /**
   * Ends every client's stream. A process that shuts down tells each client when to reconnect,
   * spread over `retryMs` and twice that, so that thousands do not come back in the same instant;
   * a client that connects meanwhile is ended the same way.
   */
  close(retryMs?: number): void {
    this.closed = true;
    this.retryMs = retryMs;
    clearInterval(this.pingTimer);
    for (const client of this.clients) this.end(client);
    this.clients.clear();
  }

  private end(client: Client): void {
    client.closed = true;
    if (this.retryMs !== undefined) client.socket.write(shutdownFrame(Math.round(this.retryMs * (1 + Math.random()))));
    client.res.end();
  }

  get stats() {
    return { clients: this.clients.size, head: this.head, droppedSlow: this.droppedSlow };
  }

  /**
   * Takes over an HTTP response as an event stream. Without `lastEventId` the client starts at
   * the present; with it, it first receives every retained event after that id (in the
   * background: this returns once the stream is open).
   */
  async attach(
    res: ServerResponse,
    options: { filter: StreamFilter; lastEventId?: number; headers: Record<string, string> },
  ): Promise<void> {
    const client: Client = {
      id: randomUUID(),
      res,
      socket: res.socket as Socket,
      filter: options.filter,
      filterKey: `${[...options.filter.types].sort().join(",")}|${options.filter.marketSlug ?? ""}`,
      cursor: this.head,
      live: options.lastEventId === undefined,
      closed: false,
    };
    res.on("close", () => {
      client.closed = true;
      this.clients.delete(client);
    });
    if (options.lastEventId !== undefined) {
      // An id newer than anything logged comes from another log (a reset database): start at the present.
      const newest = Math.max(this.head, await this.options.log.head());
      client.cursor = Math.min(options.lastEventId, newest);
    }
    if (client.closed) return;
    // The body ends when the connection does, so it needs no chunked encoding's framing, and
    // frames are written to the socket itself: one write system call per client per batch, made
    // during the fan-out. (A ServerResponse corks its socket on every write and sends on the next
    // tick, which costs more and would leave the sending out of the fan-out's measured time.)
    res.useChunkedEncodingByDefault = false;
    res.writeHead(200, options.headers);
    res.flushHeaders();
    if (this.closed) return this.end(client);
    client.socket.write(connectedFrame(client.cursor, { ok: true, clientId: client.id, ts: Date.now() }));
    this.clients.add(client);
    if (!client.live) void this.catchUp(client);
  }

  /**
   * Reads the log past the head and fans it out; called whenever events may have been appended,
   * with when the change behind them was announced if this process knows it.
   */
  pump(announcedAt?: number): void {
    if (announcedAt !== undefined) this.waitingSince = Math.min(this.waitingSince ?? announcedAt, announcedAt);
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    void this.readLog()
      .catch((error) => this.options.logger.warn({ err: error }, "stream: reading the log failed"))
      .finally(() => {
        this.pumping = false;
      });
  }

  private async readLog(): Promise<void> {
    do {
      this.pumpAgain = false;
      for (;;) {
        const rows = await this.options.log.after(this.head, this.options.pageSize);
        if (rows.length > 0) await this.broadcast(rows);
        if (rows.length < this.options.pageSize) break;
      }
    } while (this.pumpAgain);
    // Whatever was announced is out by now (another notification may have sent it first).
    this.waitingSince = undefined;
  }

  private async broadcast(rows: StreamEventRow[]): Promise<void> {
    const from = this.head;
    this.head = rows.at(-1)!.seq;
    const frames = rows.map((row) => eventFrame(row));
    const started = performance.now();
    if (this.waitingSince !== undefined) {
      this.options.onDelay?.((started - this.waitingSince) / 1000);
      this.waitingSince = undefined;
    }
    // Clients with the same filter share one encoded buffer.
    const chunks = new Map<string, Buffer | null>();
    let sliceStarted = started;
    for (const client of this.clients) {
      if (!client.live) continue;
      let chunk: Buffer | null;
      if (client.cursor > from) {
        // Caught up past our head while reading its missed events: send only what it lacks.
        chunk = encode(rows, frames, client.filter, client.cursor);
      } else if (chunks.has(client.filterKey)) {
        chunk = chunks.get(client.filterKey)!;
      } else {
        chunk = encode(rows, frames, client.filter, from);
        chunks.set(client.filterKey, chunk);
      }
      client.cursor = Math.max(client.cursor, this.head);
      if (chunk) this.send(client, chunk);
      // A fan-out to thousands of clients takes a write system call each; pausing between slices
      // lets the rest of the API answer meanwhile. Clients attaching or catching up in a pause are
      // safe: their cursors already cover this batch, or only what they lack is sent (above).
      if (performance.now() - sliceStarted >= this.options.fanoutSliceMs) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStarted = performance.now();
      }
    }
    this.options.onFanout?.((performance.now() - started) / 1000);
  }

  private async catchUp(client: Client): Promise<void> {
    let retryMs = CATCH_UP_FIRST_RETRY_MS;
    try {
      while (!client.closed) {
        let rows: Awaited<ReturnType<typeof this.options.log.after>>;
        try {
          rows = await this.options.log.after(client.cursor, this.options.pageSize);
        } catch (error) {
          // The database is away (a restart, a failover): the client stays connected, kept alive
          // by the pings, and is caught up once it is back. Closing it would make a plain
          // EventSource reconnect into a 503 and give up for good.
          this.options.logger.warn(
            { err: error, clientId: client.id, retryMs },
            "stream: catching a client up failed; retrying",
          );
          await new Promise((resolve) => setTimeout(resolve, retryMs).unref());
          retryMs = Math.min(retryMs * 2, CATCH_UP_LAST_RETRY_MS);
          continue;
        }
        retryMs = CATCH_UP_FIRST_RETRY_MS;
        if (client.closed) return;
        if (rows.length > 0) {
          const chunk = encode(
            rows,
            rows.map((row) => eventFrame(row)),
            client.filter,
            client.cursor,
          );
          client.cursor = rows.at(-1)!.seq;
          if (chunk && !client.socket.write(chunk)) await drained(client.socket);
        }
        // Checked and switched in one turn of the event loop, so no broadcast falls in between.
        if (rows.length < this.options.pageSize && client.cursor >= this.head) {
          client.live = true;
          return;
        }
      }
    } catch (error) {
      this.options.logger.warn({ err: error, clientId: client.id }, "stream: catching a client up failed");
      client.res.destroy();
    }
  }

  private ping(): void {
    for (const client of this.clients) this.send(client, PING_FRAME);
  }

  private send(client: Client, chunk: Buffer): void {
    if (client.closed) return;
    // Judged on what is still unsent from earlier writes, so that one large batch alone never
    // counts against a client that reads.
    if (client.socket.writableLength <= this.options.maxBufferedBytes) {
      client.socket.write(chunk);
    } else {
      // A reader this far behind would hold memory for everyone; it may reconnect and resume.
      this.droppedSlow += 1;
      this.options.logger.info(
        { clientId: client.id, buffered: client.socket.writableLength },
        "stream: dropping a slow client",
      );
      client.closed = true;
      this.clients.delete(client);
      client.res.destroy();
    }
  }
}

function matches(filter: StreamFilter, row: StreamEventRow): boolean {
  if (!filter.types.has(row.type)) return false;
  return filter.marketSlug === undefined || row.market_slug === filter.marketSlug;
}

/** The frames of the rows after `after` that pass the filter, as one buffer; null when none do. */
function encode(rows: StreamEventRow[], frames: string[], filter: StreamFilter, after: number): Buffer | null {
  let text = "";
  for (let i = 0; i < rows.length; i++) {
    if (rows[i]!.seq > after && matches(filter, rows[i]!)) text += frames[i];
  }
  return text ? Buffer.from(text) : null;
}

function drained(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      socket.off("drain", done);
      socket.off("close", done);
      resolve();
    };
    socket.on("drain", done);
    socket.on("close", done);
  });
}
