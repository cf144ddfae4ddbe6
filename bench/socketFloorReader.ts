// The reading side of the socket floor (socketFloor.ts): opens plain TCP connections to the
// writer and reads everything, counting bytes and nothing else. Driven by IPC messages.
import { connect, type Socket } from "node:net";

type Command = { cmd: "connect"; port: number; count: number } | { cmd: "received" } | { cmd: "close" };

const sockets: Socket[] = [];
let received = 0;

const open = (port: number) =>
  new Promise<void>((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port }, resolve);
    socket.on("data", (chunk) => {
      received += chunk.length;
    });
    socket.on("error", reject);
    sockets.push(socket);
  });

process.on("message", async (message: Command) => {
  if (message.cmd === "connect") {
    // In rounds, so that the writer's accept backlog never overflows.
    for (let opened = 0; opened < message.count; opened += 250) {
      await Promise.all(Array.from({ length: Math.min(250, message.count - opened) }, () => open(message.port)));
    }
    process.send!({ connected: sockets.length });
  } else if (message.cmd === "received") {
    process.send!({ received });
  } else {
    for (const socket of sockets) socket.destroy();
    process.exit(0);
  }
});
