// A worker process of the stream benchmark: holds many SSE connections to one API. Every
// connection counts the trade events it receives (a byte search, cheap enough for thousands);
// every `sampleEvery`-th one also parses its events and records when each trade arrived, for the
// latency table. Driven by IPC messages from bench/stream.ts.
import { request } from "node:http";
import { connect, type Socket } from "node:net";

type Command =
  | { cmd: "connect"; host: string; port: number; count: number; sampleEvery: number }
  | { cmd: "report" }
  | { cmd: "close" };

const TRADE_MARKER = Buffer.from("event: trade\n");
const now = () => performance.timeOrigin + performance.now();

const counters: { trades: number; tail: Buffer }[] = [];
const sockets: Socket[] = [];
const closers: (() => void)[] = [];
let samples: [string, number][] = [];

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
      socket.write(`GET /api/trade/stream?types=trade HTTP/1.1\r\nHost: ${host}:${port}\r\nAccept: text/event-stream\r\n\r\n`);
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

/** An HTTP client that parses events and timestamps every trade. */
function openSampling(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const counter = { trades: 0, tail: Buffer.alloc(0) };
    let pending = "";
    const req = request({ host, port, path: "/api/trade/stream?types=trade", agent: false, headers: { accept: "text/event-stream" } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`));
      res.setEncoding("utf8");
      res.once("data", () => resolve());
      res.on("data", (text: string) => {
        const at = now();
        pending += text;
        const frames = pending.split("\n\n");
        pending = frames.pop()!;
        for (const frame of frames) {
          if (!frame.includes("event: trade\n")) continue;
          counter.trades += 1;
          const id = /"id":\s*"([^"]+)"/.exec(frame)?.[1];
          if (id) samples.push([id, at]);
        }
      });
      res.on("error", () => {});
    });
    req.on("error", reject);
    req.end();
    counters.push(counter);
    closers.push(() => req.destroy());
  });
}

process.on("message", async (message: Command) => {
  if (message.cmd === "connect") {
    // In rounds, so that the server's accept backlog never overflows.
    for (let opened = 0; opened < message.count; ) {
      const round = Math.min(250, message.count - opened);
      await Promise.all(
        Array.from({ length: round }, (_, i) =>
          (opened + i) % message.sampleEvery === 0 ? openSampling(message.host, message.port) : openCounting(message.host, message.port),
        ),
      );
      opened += round;
    }
    process.send!({ connected: counters.length });
  } else if (message.cmd === "report") {
    const trades = counters.map((counter) => counter.trades);
    process.send!({ samples, minTrades: Math.min(...trades), maxTrades: Math.max(...trades) });
    samples = [];
    for (const counter of counters) counter.trades = 0;
  } else if (message.cmd === "close") {
    for (const socket of sockets) socket.destroy();
    for (const close of closers) close();
    process.exit(0);
  }
});
