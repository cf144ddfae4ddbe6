import { describe, expect, it } from "vitest";
import { SseReader } from "./sseReader";

describe("the soak's event-stream reader", () => {
  it("returns a frame only once its blank line has arrived, whatever the pieces", () => {
    const reader = new SseReader();
    const text =
      'retry: 2000\nid: 7\nevent: connected\ndata: {"ok":true}\n\nid: 8\nevent: trade\ndata: {"id":"t1"}\n\n';
    const frames = [...text].flatMap((character) => reader.push(character));
    expect(frames).toEqual([
      { retry: 2000, id: "7", event: "connected", data: '{"ok":true}' },
      { id: "8", event: "trade", data: '{"id":"t1"}' },
    ]);
  });

  it("skips comments, joins data lines, and reads CRLF line ends", () => {
    const reader = new SseReader();
    expect(reader.push(": ping\n\nid: 9\r\ndata: a\r\ndata:b\r\n\r\n: shutting down\nretry: 1500\n\n")).toEqual([
      { id: "9", data: "a\nb" },
      { retry: 1500 },
    ]);
  });
});
