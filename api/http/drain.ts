// Stopping an HTTP server without dropping what it is doing: `drain(graceMs)` stops accepting
// connections at once, closes the idle kept-alive ones, answers every request that arrives on a
// busy one with `Connection: close`, and waits for the requests in flight to finish. What is still
// open after `graceMs` (a client that never finishes sending, say) is cut, so that the process
// exits in bounded time. Long-lived answers (the event stream) must be ended by their owner first.
import type { Server } from "node:http";

/** How often connections that have just finished their request are closed while draining. */
const IDLE_SWEEP_MS = 50;

export async function drain(server: Server, graceMs: number): Promise<{ cut: number }> {
  server.on("request", (_request, response) => {
    response.shouldKeepAlive = false;
  });
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // server.close() closes the connections idle now; these become idle as their answers finish.
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  let deadline: NodeJS.Timeout | undefined;
  const timedOut = new Promise<true>((resolve) => {
    deadline = setTimeout(() => resolve(true), graceMs);
  });
  try {
    if ((await Promise.race([closed, timedOut])) !== true) return { cut: 0 };
    const cut = await new Promise<number>((resolve) => server.getConnections((_, count) => resolve(count ?? 0)));
    server.closeAllConnections();
    await closed;
    return { cut };
  } finally {
    clearInterval(sweep);
    clearTimeout(deadline);
  }
}
