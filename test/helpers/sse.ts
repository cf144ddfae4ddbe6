// A stream client as an application would write one: the standard EventSource (the `eventsource`
// package), collecting every named event with its id.
import { EventSource } from "eventsource";
import { waitUntil } from "../../scripts/stack/processes";

export type ReceivedEvent = { type: string; id: string; data: any };

const EVENT_TYPES = ["connected", "trade", "retract", "comment"];

export type StreamClient = {
  /** The EventSource in use: a new one after each reopening. */
  readonly source: EventSource;
  events: ReceivedEvent[];
  /** How many times a new EventSource took over after one gave up. */
  readonly reopened: number;
  of: (type: string) => ReceivedEvent[];
  close: () => void;
};

/**
 * Opens `url`; `lastEventId` is sent on the first connection (EventSource sends its own on
 * reconnects). EventSource gives up for good on an answer that is not a stream (a 503 while the
 * database restarts); with `reopenAfterMs` a new one then resumes from the last event id received
 * after that pause, as the explorer page does.
 */
export function openStream(url: string, options: { lastEventId?: string; reopenAfterMs?: number } = {}): StreamClient {
  const events: ReceivedEvent[] = [];
  let source: EventSource;
  let reopened = 0;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const open = (lastEventId: string | undefined) => {
    const current = new EventSource(url, {
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          headers: {
            ...(lastEventId === undefined ? {} : { "Last-Event-ID": lastEventId }),
            ...init?.headers,
          },
        }),
    });
    for (const type of EVENT_TYPES) {
      current.addEventListener(type, (event) =>
        events.push({ type, id: event.lastEventId, data: JSON.parse(event.data) }),
      );
    }
    current.addEventListener("error", () => {
      if (options.reopenAfterMs === undefined || closed || current.readyState !== EventSource.CLOSED) return;
      timer = setTimeout(() => {
        if (closed) return;
        reopened += 1;
        open(events.at(-1)?.id ?? lastEventId);
      }, options.reopenAfterMs);
    });
    source = current;
  };
  open(options.lastEventId);

  return {
    get source() {
      return source;
    },
    events,
    get reopened() {
      return reopened;
    },
    of: (type) => events.filter((event) => event.type === type),
    close: () => {
      closed = true;
      clearTimeout(timer);
      source.close();
    },
  };
}

/** Polls `condition` until it holds (the stack's waitUntil, for conditions a test checks in memory). */
export const until = (condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000) =>
  waitUntil(what, async () => condition(), { timeoutMs });

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
