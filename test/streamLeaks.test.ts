// A thousand stream clients connect and go away: the service must return to where it was, with
// no socket, timer, listener or memory left behind. The API service runs in this process so that
// its heap and handles can be measured after a forced collection.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request, type ClientRequest, type IncomingMessage } from "node:http";
import pino from "pino";
import { loadConfig } from "../api/config";
import { startApiService, type ApiService } from "../api/service";
import { until } from "./helpers/sse";
import { startTestStack, type TestStack } from "./helpers/stack";

const CLIENTS = 1_000;

/** Opens a stream and resolves once its first bytes (the connected event) arrive. */
function connect(url: string, headers: Record<string, string> = {}): Promise<ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { accept: "text/event-stream", ...headers } }, (res: IncomingMessage) => {
      if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`));
      res.once("data", () => resolve(req));
      res.on("error", () => {});
    });
    req.on("error", (error) => (req.destroyed ? undefined : reject(error)));
    req.end();
  });
}

/** Handles by type (sockets, timers, ...); the pool's idle timers may expire meanwhile, so fewer is fine. */
const resourceCounts = () => {
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
};

const noMoreThan = (now: Record<string, number>, before: Record<string, number>) =>
  Object.entries(now).every(([type, count]) => type === "Immediate" || count <= (before[type] ?? 0));

async function settledHeap(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    globalThis.gc!();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

describe("stream clients connecting and leaving", () => {
  let stack: TestStack;
  let service: ApiService;

  beforeAll(async () => {
    stack = await startTestStack();
    const config = loadConfig({
      DATABASE_URL: stack.databaseUrl,
      VIEWS_SCHEMA: stack.viewsSchema,
      PORT: "0",
      DATABASE_POOL_SIZE: "4",
      STREAM_PING_MS: "50",
    });
    service = await startApiService(config, pino({ level: "silent" }));
  });
  afterAll(async () => {
    await service?.close();
    await stack?.dispose();
  });

  const wave = async (count: number) => {
    const slug = stack.deployment.markets[0]!.slug;
    const requests = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        // Live clients, resuming ones (they read the log first) and filtered ones (a market lookup).
        i % 3 === 0
          ? connect(`${service.url}/api/trade/stream`)
          : i % 3 === 1
            ? connect(`${service.url}/api/trade/stream`, { "last-event-id": "0" })
            : connect(`${service.url}/api/trade/stream?marketSlug=${slug}&types=trade`),
      ),
    );
    expect(service.stream.stats.clients).toBe(count);
    // Pings go out to all of them meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const req of requests) req.destroy();
    await until(() => service.stream.stats.clients === 0, "every client to be released");
  };

  it("returns to its baseline of handles and memory after 1,000 clients", async () => {
    // A first small wave warms up what stays: the pool's connections, compiled code, caches.
    await wave(300);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const handlesBefore = resourceCounts();
    const heapBefore = await settledHeap();

    await wave(CLIENTS);
    await until(() => noMoreThan(resourceCounts(), handlesBefore), `handles to return to ${JSON.stringify(handlesBefore)}`, 10_000);
    const heapAfter = await settledHeap();
    const handlesAfter = resourceCounts();
    expect(noMoreThan(handlesAfter, handlesBefore), `${JSON.stringify(handlesAfter)} vs ${JSON.stringify(handlesBefore)}`).toBe(true);
    // A thousand leaked clients would hold megabytes (a socket, a response and our record each).
    expect(heapAfter - heapBefore).toBeLessThan(4 * 1024 * 1024);
  });
});
