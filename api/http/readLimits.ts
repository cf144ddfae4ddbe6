// Read limits per client address, shared by every API process (READ_LIMIT, rateLimits.ts): every
// GET and HEAD counts, cached or not, and a stream client counts once per connect, not per event.
// Probes and scrapes (/health, /ready, /metrics) never count: an orchestrator must always reach
// them. The address is the connection's peer, or the client that TRUST_PROXY_HOPS proxies name
// (clientAddress.ts). A store that does not answer lets reads pass uncounted: reads must not stop
// because the counters did.
import type { MiddlewareHandler } from "hono";
import { clientKey } from "./clientAddress";
import type { AppEnv } from "./env";
import { limitRequests } from "./rateLimits";

const UNCOUNTED_PATHS = new Set(["/health", "/ready", "/metrics"]);

export const limitReads = (): MiddlewareHandler<AppEnv> =>
  limitRequests({
    name: "reads",
    noun: "requests from one address",
    limit: (config) => config.READ_LIMIT,
    applies: (c) => (c.req.method === "GET" || c.req.method === "HEAD") && !UNCOUNTED_PATHS.has(c.req.path),
    key: clientKey,
    failOpen: true,
  });
