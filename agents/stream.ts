// The live stream as the agents read it: GET /api/trade/stream?types=trade over fetch, parsed as
// Server-Sent Events. A dropped connection (an API restart) is opened again after the delay the
// server asked for (`retry:`), longer after each failure, with Last-Event-ID so that no trade is
// missed while the retention window lasts. The agents use trades only to decide sooner: their
// figures always come from the REST reads.
import type { Schemas } from "./api";

export type SseEvent = { type: string; id?: string; data: string };

/** Splits complete events off `buffer` (text received so far); `rest` is an unfinished event. */
export function parseEvents(buffer: string): { events: SseEvent[]; rest: string; retryMs?: number } {
  const events: SseEvent[] = [];
  let retryMs: number | undefined;
  const blocks = buffer.split(/\r\n\r\n|\n\n|\r\r/);
  const rest = blocks.pop() ?? "";
  for (const block of blocks) {
    let type = "message";
    let id: string | undefined;
    const data: string[] = [];
    for (const line of block.split(/\r\n|\n|\r/)) {
      if (line === "" || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") type = value;
      else if (field === "data") data.push(value);
      else if (field === "id") id = value;
      else if (field === "retry" && /^\d+$/.test(value)) retryMs = Number(value);
    }
    if (data.length > 0) events.push({ type, id, data: data.join("\n") });
  }
  return { events, rest, retryMs };
}

export type TradeEvent = Schemas["StreamTradeEvent"];

export type TradeStream = { close: () => void };

/** How long a silent connection is trusted: the API pings every 15 s. */
const IDLE_MS = 45_000;
const MAX_DELAY_MS = 5_000;

export function followTrades(options: {
  baseUrl: string;
  onTrade: (trade: TradeEvent) => void;
  /** Told when the stream connects, and when it drops with the reason. */
  onStatus?: (connected: boolean, reason?: string) => void;
}): TradeStream {
  let closed = false;
  let current: AbortController | undefined;
  let lastEventId: string | undefined;
  let delayMs = 2_000;
  let failures = 0;

  const readOnce = async () => {
    const abort = new AbortController();
    current = abort;
    let idle = setTimeout(() => abort.abort(new Error("no data for 45 s")), IDLE_MS);
    try {
      const response = await fetch(`${options.baseUrl}/api/trade/stream?types=trade`, {
        headers: { accept: "text/event-stream", ...(lastEventId ? { "last-event-id": lastEventId } : {}) },
        signal: abort.signal,
      });
      if (!response.ok || !response.body) throw new Error(`the stream answered ${response.status}`);
      const decoder = new TextDecoder();
      let buffer = "";
      const reader = response.body.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        clearTimeout(idle);
        idle = setTimeout(() => abort.abort(new Error("no data for 45 s")), IDLE_MS);
        const parsed = parseEvents(buffer + decoder.decode(chunk.value, { stream: true }));
        buffer = parsed.rest;
        if (parsed.retryMs !== undefined) delayMs = parsed.retryMs;
        for (const event of parsed.events) {
          if (event.id !== undefined) lastEventId = event.id;
          if (event.type === "connected") {
            failures = 0;
            options.onStatus?.(true);
          } else if (event.type === "trade") options.onTrade(JSON.parse(event.data) as TradeEvent);
        }
      }
      throw new Error("the stream ended");
    } finally {
      clearTimeout(idle);
    }
  };

  void (async () => {
    while (!closed) {
      try {
        await readOnce();
      } catch (error) {
        if (closed) break;
        failures++;
        const cause = (error as { cause?: { code?: string } }).cause?.code;
        options.onStatus?.(false, cause ?? (error as Error).message);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(MAX_DELAY_MS, delayMs * 2 ** (failures - 1))));
    }
  })();

  return {
    close: () => {
      closed = true;
      current?.abort();
    },
  };
}
