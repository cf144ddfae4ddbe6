// Server-Sent Events wire format (https://html.spec.whatwg.org/multipage/server-sent-events.html).
// Event data is single-line JSON, so one `data:` line per event suffices.
import type { StreamEventRow } from "../db/streamLog";

/** How long a disconnected EventSource waits before reconnecting. */
const RETRY_MS = 2_000;

export const PING_FRAME = Buffer.from(": ping\n\n");

export const eventFrame = (row: StreamEventRow) => `id: ${row.seq}\nevent: ${row.type}\ndata: ${row.data}\n\n`;

/**
 * The first frame. Its id is where the client starts, so that a client that disconnects before
 * any event arrives still resumes from the right place.
 */
export const connectedFrame = (cursor: number, data: { ok: true; clientId: string; ts: number }) =>
  `retry: ${RETRY_MS}\nid: ${cursor}\nevent: connected\ndata: ${JSON.stringify(data)}\n\n`;
