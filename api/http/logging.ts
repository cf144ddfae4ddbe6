// One pino log line per request, tagged with the request id that the response also carries.
import type { MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import type { AppEnv } from "./env";

export const logRequests = (logger: Logger): MiddlewareHandler<AppEnv> => async (c, next) => {
  const started = performance.now();
  const log = logger.child({ reqId: c.get("requestId") });
  c.set("log", log);
  await next();
  log.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round((performance.now() - started) * 10) / 10 }, "request");
};
