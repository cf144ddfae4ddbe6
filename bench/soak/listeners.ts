// A process of the soak's stream clients, driven by IPC messages from bench/soak/listenerPool.ts.
// Each client holds GET /api/trade/stream?types=trade open as an application would: it reads as
// data comes, and when its connection ends it reconnects with Last-Event-ID after the server's
// `retry:` delay. It counts every trade id it receives, so that the soak can check that each
// confirmed trade arrived exactly once, and that event ids only ever increase.
import { connect, type Socket } from "node:net";
import { StringDecoder } from "node:string_decoder";
import { streamGaps } from "./checks";
import { Receipts, TradeIds } from "./receipts";
import { type SseFrame, SseReader } from "./sseReader";

export type ListenerCommand =
  | { cmd: "connect"; host: string; port: number; count: number }
  | { cmd: "status" }
  | { cmd: "check"; expected: string[] }
  | { cmd: "close" };

export type ListenerStatus = {
  clients: number;
  open: number;
  reconnects: number;
  /** Connections the API answered with something other than 200 (a 503 when full). */
  refused: number;
  outOfOrder: number;
  tradesReceived: number;
};

const RECONNECT_FALLBACK_MS = 1_000;

const tradeIds = new TradeIds();
/**
 * Each event's trade id by its event id, parsed from the first client that received it: every
 * client of the same filter gets the same frame, so the others only compare the text.
 */
const parsedEvents = new Map<string, { data: string; tradeId: string }>();
let inconsistent = 0;

class Listener {
  readonly receipts = new Receipts(tradeIds);
  private lastEventId: string | undefined;
  private retryMs = RECONNECT_FALLBACK_MS;
  private socket: Socket | undefined;
  open = false;
  reconnects = 0;
  refused = 0;
  outOfOrder = 0;
  tradesReceived = 0;
  private closing = false;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  /** Resolves once the stream answers 200; rejects if this first connection fails. */
  connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const resume = this.lastEventId === undefined ? "" : `Last-Event-ID: ${this.lastEventId}\r\n`;
      const socket = connect({ host: this.host, port: this.port }, () =>
        socket.write(
          `GET /api/trade/stream?types=trade HTTP/1.1\r\nHost: ${this.host}:${this.port}\r\nAccept: text/event-stream\r\n${resume}\r\n`,
        ),
      );
      this.socket = socket;
      const decoder = new StringDecoder("utf8");
      const reader = new SseReader();
      let head: Buffer | undefined = Buffer.alloc(0);
      socket.on("data", (chunk: Buffer) => {
        if (head !== undefined) {
          head = Buffer.concat([head, chunk]);
          const end = head.indexOf("\r\n\r\n");
          if (end === -1) return;
          const statusLine = head.subarray(0, head.indexOf("\r\n")).toString("latin1");
          chunk = head.subarray(end + 4);
          head = undefined;
          if (!/^HTTP\/1\.1 200 /.test(statusLine)) {
            this.refused += 1;
            socket.destroy();
            return reject(new Error(`the stream answered ${statusLine}`));
          }
          this.open = true;
          resolve();
        }
        for (const frame of reader.push(decoder.write(chunk))) this.receive(frame);
      });
      socket.on("error", reject);
      socket.on("close", () => {
        const wasOpen = this.open;
        this.open = false;
        if (this.closing || !wasOpen) return;
        // The server ended the stream (a slow client dropped, a restart): resume where it stopped.
        this.reconnects += 1;
        setTimeout(() => this.reconnect(), this.retryMs);
      });
    });
  }

  private reconnect(): void {
    if (this.closing) return;
    this.connect().catch(() => setTimeout(() => this.reconnect(), this.retryMs));
  }

  private receive(frame: SseFrame): void {
    if (frame.retry !== undefined) this.retryMs = frame.retry;
    if (frame.id === undefined) return;
    if (frame.event === "trade") {
      if (this.lastEventId !== undefined && Number(frame.id) <= Number(this.lastEventId)) this.outOfOrder += 1;
      this.tradesReceived += 1;
      this.receipts.add(tradeIdOf(frame.id, frame.data ?? ""));
    }
    this.lastEventId = frame.id;
  }

  close(): void {
    this.closing = true;
    this.socket?.destroy();
  }
}

function tradeIdOf(eventId: string, data: string): string {
  const known = parsedEvents.get(eventId);
  if (known && known.data === data) return known.tradeId;
  const tradeId = String((JSON.parse(data) as { id: string }).id);
  if (known) inconsistent += 1;
  else parsedEvents.set(eventId, { data, tradeId });
  return tradeId;
}

const listeners: Listener[] = [];

const status = (): ListenerStatus & { inconsistent: number } => ({
  clients: listeners.length,
  open: listeners.filter((listener) => listener.open).length,
  reconnects: listeners.reduce((sum, listener) => sum + listener.reconnects, 0),
  refused: listeners.reduce((sum, listener) => sum + listener.refused, 0),
  outOfOrder: listeners.reduce((sum, listener) => sum + listener.outOfOrder, 0),
  tradesReceived: listeners.reduce((sum, listener) => sum + listener.tradesReceived, 0),
  inconsistent,
});

process.on("message", async (message: ListenerCommand) => {
  if (message.cmd === "connect") {
    // In rounds, so that the server's accept backlog never overflows.
    for (let opened = 0; opened < message.count; ) {
      const round = Array.from(
        { length: Math.min(250, message.count - opened) },
        () => new Listener(message.host, message.port),
      );
      listeners.push(...round);
      await Promise.all(round.map((listener) => listener.connect()));
      opened += round.length;
    }
    process.send!(status());
  } else if (message.cmd === "status") {
    process.send!(status());
  } else if (message.cmd === "check") {
    process.send!({
      ...status(),
      gaps: streamGaps(
        message.expected,
        listeners.map((listener) => listener.receipts),
      ),
    });
  } else if (message.cmd === "close") {
    for (const listener of listeners) listener.close();
    process.exit(0);
  }
});
