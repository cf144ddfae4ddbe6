// A worker process of the stream benchmark: holds many SSE connections to one API, of one of two
// kinds. Probes parse their events as they come and record when each trade arrived, for the
// latency table. Counters only count their trade events, reading in bulk once a second (their
// kernel buffers hold what arrives meanwhile): the server's work per client is the same, and the
// load generator leaves the two cores to the server. Driven by IPC messages from bench/stream.ts.
import { connect, type Socket } from "node:net";

type Command =
  | { cmd: "connect"; host: string; port: number; count: number; probes: boolean }
  | { cmd: "report" }
  | { cmd: "reset" }
  | { cmd: "close" };

const TRADE_MARKER = Buffer.from("event: trade\n");
const BULK_READ_EVERY_MS = 1_000;
/** Counters read in turns, one slice of them per tick, so that their reads never come as one burst. */
const BULK_READ_SLICES = 20;
const now = () => performance.timeOrigin + performance.now();

const counters: { trades: number; tail: Buffer }[] = [];
const sockets: Socket[] = [];
const closers: (() => void)[] = [];
let samples: [string, number][] = [];

const request = (host: string, port: number) =>
  `GET /api/trade/stream?types=trade HTTP/1.1\r\nHost: ${host}:${port}\r\nAccept: text/event-stream\r\n\r\n`;

function countTrades(counter: { trades: number; tail: Buffer }, chunk: Buffer) {
  // Keep the end of the previous read: a marker may straddle two reads.
  const text = counter.tail.length > 0 ? Buffer.concat([counter.tail, chunk]) : chunk;
  let at = text.indexOf(TRADE_MARKER);
  while (at !== -1) {
    counter.trades += 1;
    at = text.indexOf(TRADE_MARKER, at + TRADE_MARKER.length);
  }
  counter.tail = Buffer.from(text.subarray(Math.max(0, text.length - TRADE_MARKER.length + 1)));
}

/** A bare socket speaking just enough HTTP to open the stream. */
function openCounting(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const counter = { trades: 0, tail: Buffer.alloc(0) };
    const socket = connect({ host, port }, () => {
      socket.write(request(host, port));
    });
    let opened = false;
    socket.on("data", (chunk) => {
      if (!opened) {
        opened = true;
        if (!chunk.subarray(0, 12).toString().includes("200")) return reject(new Error(chunk.subarray(0, 200).toString()));
        resolve();
      }
      countTrades(counter, chunk);
    });
    socket.on("error", reject);
    counters.push(counter);
    sockets.push(socket);
  });
}

/** A probe: parses events as they arrive and timestamps every trade. */
function openSampling(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const counter = { trades: 0, tail: Buffer.alloc(0) };
    let pending = "";
    let opened = false;
    const socket = connect({ host, port }, () => socket.write(request(host, port)));
    socket.on("data", (chunk) => {
      const at = now();
      if (!opened) {
        opened = true;
        if (!chunk.subarray(0, 12).toString().includes("200")) return reject(new Error(chunk.subarray(0, 200).toString()));
        resolve();
      }
      // The body is the event stream as written (no chunked encoding): frames end with a blank line.
      pending += chunk.toString("latin1");
      const frames = pending.split("\n\n");
      pending = frames.pop()!;
      for (const frame of frames) {
        if (!frame.includes("event: trade\n")) continue;
        counter.trades += 1;
        const id = /"id":\s*"([^"]+)"/.exec(frame)?.[1];
        if (id) samples.push([id, at]);
      }
    });
    socket.on("error", reject);
    counters.push(counter);
    closers.push(() => socket.destroy());
  });
}

let slice = 0;
setInterval(() => {
  for (let i = 0; i < sockets.length; i++) {
    if (i % BULK_READ_SLICES === slice) sockets[i]!.resume();
    else sockets[i]!.pause();
  }
  slice = (slice + 1) % BULK_READ_SLICES;
}, BULK_READ_EVERY_MS / BULK_READ_SLICES);

process.on("message", async (message: Command) => {
  if (message.cmd === "connect") {
    // In rounds, so that the server's accept backlog never overflows.
    for (let opened = 0; opened < message.count; ) {
      const round = Math.min(250, message.count - opened);
      await Promise.all(
        Array.from({ length: round }, () =>
          message.probes ? openSampling(message.host, message.port) : openCounting(message.host, message.port),
        ),
      );
      opened += round;
    }
    process.send!({ connected: counters.length });
  } else if (message.cmd === "report") {
    const trades = counters.map((counter) => counter.trades);
    process.send!({ samples, minTrades: Math.min(...trades), maxTrades: Math.max(...trades) });
  } else if (message.cmd === "reset") {
    samples = [];
    for (const counter of counters) counter.trades = 0;
    process.send!({ reset: true });
  } else if (message.cmd === "close") {
    for (const socket of sockets) socket.destroy();
    for (const close of closers) close();
    process.exit(0);
  }
});
