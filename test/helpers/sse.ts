// A stream client as an application would write one: the standard EventSource (the `eventsource`
// package), collecting every named event with its id.
import { EventSource } from "eventsource";
import { waitUntil } from "../../scripts/stack/processes";

export type ReceivedEvent = { type: string; id: string; data: any };

const EVENT_TYPES = ["connected", "trade", "retract", "comment"];

export type StreamClient = {
  source: EventSource;
  events: ReceivedEvent[];
  of: (type: string) => ReceivedEvent[];
  close: () => void;
};

/** Opens `url`; `lastEventId` is sent on the first connection (EventSource sends its own on reconnects). */
export function openStream(url: string, options: { lastEventId?: string } = {}): StreamClient {
  const events: ReceivedEvent[] = [];
  const source = new EventSource(url, {
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        headers: {
          ...(options.lastEventId === undefined ? {} : { "Last-Event-ID": options.lastEventId }),
          ...init?.headers,
        },
      }),
  });
  for (const type of EVENT_TYPES) {
    source.addEventListener(type, (event) =>
      events.push({ type, id: event.lastEventId, data: JSON.parse(event.data) }),
    );
  }
  return { source, events, of: (type) => events.filter((event) => event.type === type), close: () => source.close() };
}

/** Polls `condition` until it holds (the stack's waitUntil, for conditions a test checks in memory). */
export const until = (condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000) =>
  waitUntil(what, async () => condition(), { timeoutMs });

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
