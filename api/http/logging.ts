// One pino log line per request, tagged with the request id that the response also carries.
// Successful reads log at debug: at thousands per second they are the load balancer's business,
// and their log lines measurably stretched the latency tail; writes and errors log at info.
import type { MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import type { AppEnv } from "./env";

export const logRequests =
  (logger: Logger): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const started = performance.now();
    const log = logger.child({ reqId: c.get("requestId") });
    c.set("log", log);
    await next();
    const quiet = (c.req.method === "GET" || c.req.method === "HEAD") && c.res.status < 400;
    if (quiet && !log.isLevelEnabled("debug")) return;
    log[quiet ? "debug" : "info"](
      {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      "request",
    );
  };
