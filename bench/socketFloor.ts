// The machine's floor under the stream table: how long it takes, with nothing else running, to
// write one buffer to each of many loopback TCP sockets whose reader does nothing but read. No
// fan-out of an SSE server to as many clients on this machine can be faster; the stream table's
// fan-out times are to be read against it.
import { fork } from "node:child_process";
import { createServer, type Socket } from "node:net";
import { join } from "node:path";
import { median } from "./stats";

const ROUNDS = 5;

/** Median milliseconds of one write to each of `clients` sockets, per buffer size in bytes. */
export async function socketFanoutFloor(clients: number, sizes: number[]): Promise<Map<number, number>> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    sockets.push(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const reader = fork(join(import.meta.dirname, "socketFloorReader.ts"), {
    execArgv: ["--import", "tsx"],
    stdio: "inherit",
  });
  const ask = <T>(message: object) =>
    new Promise<T>((resolve) => {
      reader.once("message", (reply) => resolve(reply as T));
      reader.send(message);
    });
  try {
    const port = (server.address() as { port: number }).port;
    await ask({ cmd: "connect", port, count: clients });
    while (sockets.length < clients) await new Promise((resolve) => setTimeout(resolve, 10));
    const floor = new Map<number, number>();
    let sent = 0;
    for (const size of sizes) {
      const buffer = Buffer.alloc(size, "a");
      const times: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const started = performance.now();
        for (const socket of sockets) socket.write(buffer);
        times.push(performance.now() - started);
        sent += size * sockets.length;
        // The next round starts once the reader has everything, as a client keeping up would.
        while ((await ask<{ received: number }>({ cmd: "received" })).received < sent)
          await new Promise((resolve) => setTimeout(resolve, 20));
      }
      floor.set(size, median(times));
    }
    return floor;
  } finally {
    reader.send({ cmd: "close" });
    for (const socket of sockets) socket.destroy();
    server.close();
  }
}
