import { describe, expect, it } from "vitest";
import { connectedFrame, dataLines, eventFrame, PING_FRAME, shutdownFrame } from "./frames";

/** A minimal reader of the SSE format, as the WHATWG parser reads frames: fields, data lines joined by "\n". */
function parse(stream: string) {
  return stream
    .split("\n\n")
    .filter((frame) => frame !== "")
    .map((frame) => {
      const fields: Record<string, string> = {};
      const data: string[] = [];
      for (const line of frame.split("\n")) {
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const name = line.slice(0, colon);
        const value = line.slice(colon + 1).replace(/^ /, "");
        if (name === "data") data.push(value);
        else fields[name] = value;
      }
      return { ...fields, data: data.join("\n") };
    });
}

describe("SSE frames", () => {
  it("writes an event with its sequence number as id, its type as event name, and its JSON as data", () => {
    const frame = eventFrame({ seq: 42, type: "trade", data: '{"price":0.5}' });
    expect(frame).toBe('id: 42\nevent: trade\ndata: {"price":0.5}\n\n');
    expect(parse(frame)).toEqual([{ id: "42", event: "trade", data: '{"price":0.5}' }]);
  });

  it("sends data with line breaks as several data lines that read back as the same text", () => {
    const data = '{\n  "a": 1,\r\n  "b": "x"\r}';
    const frame = eventFrame({ seq: 1, type: "trade", data });
    expect(frame.slice(0, -2)).not.toContain("\n\n");
    expect(parse(frame)[0]!.data).toBe('{\n  "a": 1,\n  "b": "x"\n}');
  });

  it("keeps a payload from forging fields or ending its frame early", () => {
    const frames = parse(eventFrame({ seq: 7, type: "trade", data: "x\n\nid: 999\nevent: forged" }));
    expect(frames).toEqual([{ id: "7", event: "trade", data: "x\n\nid: 999\nevent: forged" }]);
  });

  it("writes one data line for single-line data", () => {
    expect(dataLines("abc")).toBe("data: abc");
    expect(dataLines("")).toBe("data: ");
  });

  it("opens a stream with the retry delay, the resume cursor as id, and a connected event", () => {
    const frame = connectedFrame(17, { ok: true, clientId: "c1", ts: 5 });
    expect(frame.startsWith("retry: 2000\n")).toBe(true);
    expect(parse(frame)).toEqual([
      { retry: "2000", id: "17", event: "connected", data: '{"ok":true,"clientId":"c1","ts":5}' },
    ]);
  });

  it("ends a stream with only a new retry delay: no event, and the resume id left as it was", () => {
    expect(parse(shutdownFrame(1500).toString())).toEqual([{ retry: "1500", data: "" }]);
  });

  it("pings with a comment line that readers ignore", () => {
    expect(PING_FRAME.toString()).toBe(": ping\n\n");
    expect(parse(PING_FRAME.toString())).toEqual([{ data: "" }]);
  });
});
