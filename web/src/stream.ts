// The live stream (GET /api/trade/stream, Server-Sent Events) as trades and retractions, resumed
// after every disconnect from the last event id seen: EventSource sends Last-Event-ID itself when it
// reconnects after a dropped connection; when it gives up (an answer that is not a stream, such as a
// 503 while the API restarts) a new one starts with `?lastEventId=`, after a growing pause.
import type { components } from "../../api/client";

export type TradeEvent = components["schemas"]["StreamTradeEvent"];
export type RetractEvent = components["schemas"]["StreamRetractEvent"];
export type StreamStatus = "connecting" | "live" | "reconnecting";

/** Pauses before a new EventSource: 1 s, 2 s, 4 s, … up to 15 s. */
export const reconnectDelay = (attempt: number) => Math.min(15_000, 1_000 * 2 ** attempt);

/** The stream's URL, resuming after `lastEventId` when there is one. */
export function streamUrl(base: string, lastEventId: string | undefined): string {
  if (!lastEventId) return base;
  return `${base}${base.includes("?") ? "&" : "?"}lastEventId=${encodeURIComponent(lastEventId)}`;
}

/** Remembers the last `size` ids, so that an event delivered twice is shown once. */
export class RecentIds {
  private readonly ids = new Set<string>();
  constructor(private readonly size: number) {}
  /** True the first time an id is seen. */
  add(id: string): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > this.size) this.ids.delete(this.ids.values().next().value!);
    return true;
  }
}

export class LiveStream {
  private source?: EventSource;
  private lastEventId?: string;
  private attempt = 0;
  private timer?: ReturnType<typeof setTimeout>;
  private readonly seen = new RecentIds(2_000);

  constructor(
    private readonly options: {
      url: string;
      onTrade: (trade: TradeEvent) => void;
      onRetract: (retract: RetractEvent) => void;
      onStatus: (status: StreamStatus) => void;
    },
  ) {}

  start() {
    this.options.onStatus("connecting");
    this.open();
  }

  stop() {
    clearTimeout(this.timer);
    this.source?.close();
    this.source = undefined;
  }

  private open() {
    const source = new EventSource(streamUrl(this.options.url, this.lastEventId));
    this.source = source;
    const track = (event: MessageEvent) => {
      if (event.lastEventId) this.lastEventId = event.lastEventId;
    };
    source.addEventListener("connected", (event) => {
      track(event);
      this.attempt = 0;
      this.options.onStatus("live");
    });
    source.addEventListener("trade", (event) => {
      track(event);
      const trade = JSON.parse(event.data) as TradeEvent;
      if (this.seen.add(trade.id)) this.options.onTrade(trade);
    });
    source.addEventListener("retract", (event) => {
      track(event);
      this.options.onRetract(JSON.parse(event.data) as RetractEvent);
    });
    source.addEventListener("error", () => {
      this.options.onStatus("reconnecting");
      if (source.readyState !== EventSource.CLOSED) return;
      source.close();
      this.timer = setTimeout(() => this.open(), reconnectDelay(this.attempt++));
    });
  }
}
