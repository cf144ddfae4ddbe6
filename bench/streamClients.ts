// A worker process of the stream benchmark: holds many SSE connections to one API, of one of two
// kinds. Probes parse their events as they come and record when each trade arrived, for the
// latency table. Counters read as their data comes, like any client, but only count their trade
// events. Driven by IPC messages from bench/stream.ts.
//
// Counters once read in bulk, each socket once a second, to spare the cores: at 100 trades/s
// that left hundreds of megabytes in the kernel's socket buffers, under which the API's writes
// stalled for seconds (TCP memory pressure), a state no reading client puts a server in.
import { connect, type Socket } from "node:net";

type Command =
  | { cmd: "connect"; host: string; port: number; count: number; probes: boolean }
  | { cmd: "report" }
  | { cmd: "reset" }
  | { cmd: "close-probes" }
  | { cmd: "disconnect" }
  | { cmd: "close" };

const TRADE_MARKER = Buffer.from("event: trade\n");
const now = () => performance.timeOrigin + performance.now();

let counters: { trades: number; tail: Buffer }[] = [];
const sockets: Socket[] = [];
/** The probes' counters and sockets, which can be closed apart from the others. */
let probes: { counter: { trades: number; tail: Buffer }; socket: Socket }[] = [];
let samples: [string, number][] = [];

const request = (host: string, port: number) =>
  `GET /api/trade/stream?types=trade HTTP/1.1\r\nHost: ${host}:${port}\r\nAccept: text/event-stream\r\n\r\n`;

function countTrades(counter: { trades: number; tail: Buffer }, chunk: Buffer) {
  // A marker may straddle two reads: look for it where the previous read's end meets this one's
  // start (any marker found there straddles, being longer than either side), then in this read.
  // Copying only those few bytes, not each read, keeps the counters off the cores the API needs.
  const keep = TRADE_MARKER.length - 1;
  if (counter.tail.length > 0 && Buffer.concat([counter.tail, chunk.subarray(0, keep)]).includes(TRADE_MARKER))
    counter.trades += 1;
  let at = chunk.indexOf(TRADE_MARKER);
  while (at !== -1) {
    counter.trades += 1;
    at = chunk.indexOf(TRADE_MARKER, at + TRADE_MARKER.length);
  }
  const seen = chunk.length >= keep ? chunk : Buffer.concat([counter.tail, chunk]);
  counter.tail = Buffer.from(seen.subarray(seen.length - Math.min(keep, seen.length)));
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
        if (!chunk.subarray(0, 12).toString().includes("200"))
          return reject(new Error(chunk.subarray(0, 200).toString()));
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
        if (!chunk.subarray(0, 12).toString().includes("200"))
          return reject(new Error(chunk.subarray(0, 200).toString()));
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
    probes.push({ counter, socket });
  });
}

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
  } else if (message.cmd === "close-probes") {
    const closed = new Set(probes.map((probe) => probe.counter));
    for (const probe of probes) probe.socket.destroy();
    probes = [];
    counters = counters.filter((counter) => !closed.has(counter));
    process.send!({ closed: closed.size });
  } else if (message.cmd === "disconnect") {
    for (const socket of sockets) socket.destroy();
    for (const probe of probes) probe.socket.destroy();
    sockets.length = 0;
    probes = [];
    counters = [];
    samples = [];
    process.send!({ disconnected: true });
  } else if (message.cmd === "close") {
    for (const socket of sockets) socket.destroy();
    for (const probe of probes) probe.socket.destroy();
    process.exit(0);
  }
});
