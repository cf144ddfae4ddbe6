import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { drain } from "./drain";

let server: Server;
let port: number;

/** A server whose `/slow` answers after `ms` and whose `/` answers at once. */
async function start(ms: number) {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === "/slow") setTimeout(() => res.end("slow"), ms);
    else res.end("fast");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
}

const get = (path: string, agent?: import("node:http").Agent) =>
  new Promise<{ status: number; body: string; connection?: string }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, agent }, (res) => {
      let body = "";
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, body, connection: res.headers.connection }));
    });
    req.on("error", reject);
    req.end();
  });

const refused = () =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.on("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.on("error", () => resolve(true));
  });

afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

describe("drain", () => {
  it("stops accepting at once, lets a request in flight finish, and resolves with nothing cut", async () => {
    await start(300);
    const slow = get("/slow");
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    const drained = drain(server, 5_000);
    expect(await refused()).toBe(true);
    expect(await slow).toMatchObject({ status: 200, body: "slow" });
    expect(await drained).toEqual({ cut: 0 });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("closes kept-alive connections, idle or busy, instead of waiting for their timeout", async () => {
    await start(300);
    const agent = new (await import("node:http")).Agent({ keepAlive: true, maxSockets: 2 });
    await Promise.all([get("/", agent), get("/", agent)]);
    const slow = get("/slow", agent);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    const drained = drain(server, 5_000);
    expect((await slow).body).toBe("slow");
    expect(await drained).toEqual({ cut: 0 });
    expect(Date.now() - started).toBeLessThan(1_000);
    agent.destroy();
  });

  it("cuts what is still open after the grace period", async () => {
    await start(60_000);
    const stuck = get("/slow").catch((error: Error) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    expect(await drain(server, 300)).toEqual({ cut: 1 });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await stuck).toBeInstanceOf(Error);
  });
});
