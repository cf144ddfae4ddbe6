// Server-Sent Events wire format (https://html.spec.whatwg.org/multipage/server-sent-events.html).
// Event data is compact JSON, one line; data with line breaks is sent as several `data:` lines,
// which the client joins with "\n", so no payload can end a frame early or forge a field.
import type { StreamEventRow } from "../db/streamLog";

/** How long a disconnected EventSource waits before reconnecting. */
const RETRY_MS = 2_000;

export const PING_FRAME = Buffer.from(": ping\n\n");

const LINE_BREAK = /\r\n|\r|\n/;

/** `data:` lines for a payload: one per line of it. */
export const dataLines = (data: string) =>
  LINE_BREAK.test(data)
    ? data
        .split(LINE_BREAK)
        .map((line) => `data: ${line}`)
        .join("\n")
    : `data: ${data}`;

export const eventFrame = (row: Pick<StreamEventRow, "seq" | "type" | "data">) =>
  `id: ${row.seq}\nevent: ${row.type}\n${dataLines(row.data)}\n\n`;

/**
 * The last frame of a process that shuts down: how long to wait before reconnecting (to another
 * process, or to this one restarted), then the end. The client resumes from its last event id.
 */
export const shutdownFrame = (retryMs: number) =>
  Buffer.from(`: shutting down; reconnect with Last-Event-ID\nretry: ${retryMs}\n\n`);

/**
 * The first frame. Its id is where the client starts, so that a client that disconnects before
 * any event arrives still resumes from the right place.
 */
export const connectedFrame = (cursor: number, data: { ok: true; clientId: string; ts: number }) =>
  `retry: ${RETRY_MS}\nid: ${cursor}\nevent: connected\n${dataLines(JSON.stringify(data))}\n\n`;
