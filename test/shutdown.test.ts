// SIGTERM drains the API on the real stack: no new connection is accepted, kept-alive idle
// connections close, stream clients are told when to reconnect and ended, a buy whose body was
// still arriving is served to the end (and confirmed on chain), and a request that never finishes
// is cut when SHUTDOWN_DRAIN_MS runs out, so that the process exits, with code 0, within 10 s.

import { readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi } from "../scripts/stack/api";
import { freePort } from "../scripts/stack/ports";
import { type Child, stopChild } from "../scripts/stack/processes";
import { testClient } from "./helpers/client";
import { sleep, until } from "./helpers/sse";
import { startTestStack, type TestStack } from "./helpers/stack";
import { tokenFor } from "./helpers/tokens";

const DRAIN_MS = 8_000;

/** A raw HTTP/1.1 connection: what the server answered, and whether it closed the connection. */
function rawConnection(url: string) {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  let received = "";
  socket.on("data", (chunk) => (received += chunk));
  socket.on("error", () => {});
  const closed = new Promise<number>((resolve) => socket.on("close", () => resolve(Date.now())));
  return { socket, closed, received: () => received };
}

/** A request whose headers and the start of whose body are sent now; `finish` sends the rest. */
function slowRequest(url: string, path: string, token: string, body: string, sentNow: number) {
  const connection = rawConnection(url);
  connection.socket.write(
    `POST ${path} HTTP/1.1\r\nHost: api\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, sentNow)}`,
  );
  return { ...connection, finish: () => connection.socket.write(body.slice(sentNow)) };
}

/** Whether a new connection to `url` is refused. */
const refuses = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    socket.on("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.on("error", () => resolve(true));
  });

const exitOf = (child: Child) =>
  new Promise<{ code: number | null; signal: string | null; at: number }>((resolve) =>
    child.process.once("exit", (code, signal) => resolve({ code, signal, at: Date.now() })),
  );

const terminate = (child: Child) => process.kill(-child.process.pid!, "SIGTERM");

describe("graceful shutdown", () => {
  let stack: TestStack;
  let api: Child;
  let restarted: Child | undefined;
  let token: string;

  beforeAll(async () => {
    stack = await startTestStack();
    api = stack.children.find((child) => child.name === "api")!;
    token = await tokenFor("draining-trader");
    const client = testClient(stack.apiUrl!, token);
    expect((await client.call("POST", "/api/wallet/get-or-create")).status).toBe(200);
    expect((await client.call("POST", "/api/wallet/faucet")).status).toBe(200);
  });
  afterAll(async () => {
    if (restarted) await stopChild(restarted);
    await stack?.dispose();
  });

  it("on SIGTERM refuses new connections, ends streams with a retry hint, serves the buy in flight, cuts what never finishes, and exits with 0 within 10 s", async () => {
    const url = stack.apiUrl!;
    const streams = await Promise.all(
      [0, 1, 2].map(async () => {
        const response = await fetch(`${url}/api/trade/stream`);
        const reader = response.body!.getReader();
        let text = "";
        const ended = (async () => {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return Date.now();
            text += new TextDecoder().decode(value);
          }
        })();
        await until(() => text.includes("event: connected"), "connected");
        return { text: () => text, ended };
      }),
    );
    // A kept-alive connection that has had its answer and sits idle.
    const idle = rawConnection(url);
    idle.socket.write("GET /health HTTP/1.1\r\nHost: api\r\n\r\n");
    await until(() => idle.received().includes("\r\n\r\n"), "an answer on the kept-alive connection");
    const buyBody = JSON.stringify({ marketSlug: stack.deployment.markets[1]!.slug, outcome: "Yes", amount: 2 });
    const buy = slowRequest(url, "/api/trade/buy", token, buyBody, 10);
    // Never finishes sending its body.
    const stuck = slowRequest(url, "/api/wallet/faucet", token, JSON.stringify({ padding: "x".repeat(100) }), 5);
    await sleep(300);

    const exited = exitOf(api);
    const signalled = Date.now();
    terminate(api);

    await until(() => refuses(url), "new connections refused", 2_000);
    const idleClosedAt = await idle.closed;
    expect(idleClosedAt - signalled).toBeLessThan(2_000);
    for (const stream of streams) {
      expect(await stream.ended).toBeLessThan(signalled + 2_000);
      expect(stream.text()).toMatch(/\nretry: (\d+)\n\n$/);
      const retry = Number(/\nretry: (\d+)\n\n$/.exec(stream.text())![1]);
      expect(retry).toBeGreaterThanOrEqual(1_000);
      expect(retry).toBeLessThanOrEqual(2_000);
    }

    // The buy was in flight when the signal came: it is served, after the signal, to the end.
    await sleep(1_000);
    buy.finish();
    await buy.closed;
    const [head, body] = buy.received().split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    const sent = JSON.parse(body!);
    expect(sent).toMatchObject({ status: "pending", txId: expect.stringMatching(/^0x[0-9a-f]{64}$/) });

    const { code, at } = await exited;
    expect(code).toBe(0);
    // The stuck request held the drain to its end, and no longer.
    expect(at - signalled).toBeGreaterThanOrEqual(DRAIN_MS);
    expect(at - signalled).toBeLessThan(10_000);
    expect(stuck.received()).toBe("");
    expect(await stuck.closed).toBeLessThanOrEqual(at);

    const log = readFileSync(api.logFile, "utf8");
    expect(log).toMatch(/"signal":"SIGTERM".*"msg":"shutting down: draining requests in flight"/);
    expect(log).toMatch(/"cutConnections":1.*"msg":"shut down; cut connections still busy"/);

    // The buy served during the drain went out: a new process sees it confirmed.
    restarted = (await startApi({ ...stack.apiOptions!, logFile: join(stack.dataDir, "logs", "api-restarted.log") }))
      .child;
    const client = testClient(stack.apiUrl!, token);
    let status = "pending";
    await until(async () => {
      status = (await client.call("GET", `/api/trade/status/${sent.txId}`)).body.status;
      return status !== "pending";
    }, "the buy settled");
    expect(status).toBe("confirmed");
  });

  it("exits at once when nothing is in flight", async () => {
    const another = await startApi({
      ...stack.apiOptions!,
      port: await freePort(),
      logFile: join(stack.dataDir, "logs", "api-idle.log"),
    });
    const health = await fetch(`${another.url}/health`);
    expect(health.status).toBe(200);
    const exited = exitOf(another.child);
    const signalled = Date.now();
    terminate(another.child);
    const { code, at } = await exited;
    expect(code).toBe(0);
    expect(at - signalled).toBeLessThan(2_000);
  });
});
