// The hub over a real loopback socket, with a log held in memory: a client resuming from an id
// while the log cannot be read stays connected and is caught up once it can.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import type { StreamEventRow, StreamLog } from "../db/streamLog";
import { StreamHub } from "./hub";

const rows: StreamEventRow[] = [1, 2, 3].map((seq) => ({
  seq,
  type: "trade",
  market_slug: "m",
  data: JSON.stringify({ n: seq }),
}));

/** A log whose reads fail `failures` times before they answer, as while a database restarts. */
function flakyLog(failures: number) {
  let failuresLeft = failures;
  let reads = 0;
  const log = {
    head: async () => 3,
    after: async (seq: number, limit: number) => {
      reads++;
      if (failuresLeft > 0) {
        failuresLeft--;
        throw Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });
      }
      return rows.filter((row) => row.seq > seq).slice(0, limit);
    },
  } as unknown as StreamLog;
  return { log, reads: () => reads };
}

let server: Server | undefined;
let hub: StreamHub | undefined;
afterEach(async () => {
  hub?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
});

async function listen(log: StreamLog) {
  hub = new StreamHub({
    log,
    logger: pino({ level: "silent" }),
    pingMs: 50,
    maxBufferedBytes: 1 << 20,
    pageSize: 10,
    fanoutSliceMs: 10,
  });
  await hub.start();
  const started = hub;
  server = createServer((_, res) => {
    void started.attach(res, {
      filter: { types: new Set(["trade"]) },
      lastEventId: 0,
      headers: { "content-type": "text/event-stream" },
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** Reads the stream until it holds `count` event ids; the ids in order. */
async function eventIds(url: string, count: number): Promise<number[]> {
  const response = await fetch(url);
  const reader = response.body!.getReader();
  let text = "";
  for (;;) {
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
    const events = ids.filter((id) => id > 0);
    if (events.length >= count) {
      await reader.cancel();
      return events;
    }
    const { value, done } = await reader.read();
    if (done) return events;
    text += new TextDecoder().decode(value);
  }
}

describe("the stream hub catching a client up", () => {
  it("keeps a resuming client connected while the log cannot be read, then sends it every event once, in order", async () => {
    const { log, reads } = flakyLog(3);
    const url = await listen(log);
    expect(await eventIds(url, 3)).toEqual([1, 2, 3]);
    expect(reads()).toBeGreaterThanOrEqual(4);
  });
});
