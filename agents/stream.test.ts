import { describe, expect, it } from "vitest";
import { parseEvents } from "./stream";

describe("parseEvents", () => {
  it("splits complete events off and keeps the unfinished rest", () => {
    const text =
      'retry: 2000\nid: 7\nevent: connected\ndata: {"ok":true}\n\n: ping\n\nid: 8\nevent: trade\ndata: {"a":1}\n\nid: 9\nevent: tr';
    const { events, rest, retryMs } = parseEvents(text);
    expect(events).toEqual([
      { type: "connected", id: "7", data: '{"ok":true}' },
      { type: "trade", id: "8", data: '{"a":1}' },
    ]);
    expect(rest).toBe("id: 9\nevent: tr");
    expect(retryMs).toBe(2000);
  });

  it("joins data lines and accepts CRLF line ends", () => {
    const { events } = parseEvents("event: comment\r\ndata: line one\r\ndata: line two\r\n\r\n");
    expect(events).toEqual([{ type: "comment", id: undefined, data: "line one\nline two" }]);
  });

  it("continues an event across chunks", () => {
    const first = parseEvents("id: 3\nevent: trade\nda");
    expect(first.events).toEqual([]);
    const second = parseEvents(`${first.rest}ta: {}\n\n`);
    expect(second.events).toEqual([{ type: "trade", id: "3", data: "{}" }]);
  });
});
