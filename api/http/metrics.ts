// Prometheus metrics: the process defaults plus a request histogram by route and status.
import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

const registry = new Registry();
collectDefaultMetrics({ register: registry });

const requestDuration = new Histogram({
  name: "http_request_duration_seconds",
  help: "HTTP request duration by method, route and status",
  labelNames: ["method", "route", "status"] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [registry],
});

export const METRICS_CONTENT_TYPE = registry.contentType;
export const metricsText = () => registry.metrics();

export const measureRequests = (): MiddlewareHandler => async (c, next) => {
  const end = requestDuration.startTimer();
  await next();
  // The route pattern, not the path, so that slugs do not explode the label set.
  end({ method: c.req.method, route: routePath(c), status: String(c.res.status) });
};

const rateLimitRefusals = new Counter({
  name: "rate_limit_refusals_total",
  help: "requests answered 429 rate_limited, by limit (reads, posts, comments, tips)",
  labelNames: ["limit"] as const,
  registers: [registry],
});

export const countRateLimitRefusal = (limit: string) => rateLimitRefusals.inc({ limit });

const rateLimitStoreErrors = new Counter({
  name: "rate_limit_store_errors_total",
  help: "requests whose rate-limit counter could not be reached (reads then pass uncounted), by limit",
  labelNames: ["limit"] as const,
  registers: [registry],
});

export const countRateLimitStoreError = (limit: string) => rateLimitStoreErrors.inc({ limit });

const streamFanout = new Histogram({
  name: "stream_fanout_seconds",
  help: "time to write one batch of stream events to every connected client",
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
  registers: [registry],
});

export const observeFanout = (seconds: number) => streamFanout.observe(seconds);

const streamDelay = new Histogram({
  name: "stream_delay_seconds",
  help: "time from the indexer's notification of new rows to the start of the fan-out of their events",
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [registry],
});

export const observeStreamDelay = (seconds: number) => streamDelay.observe(seconds);

/** Gauges of the live stream, read when scraped (of the latest service, should a process start several). */
export function observeStream(stats: () => { clients: number; droppedSlow: number }) {
  for (const name of ["stream_clients", "stream_slow_clients_dropped"]) registry.removeSingleMetric(name);
  new Gauge({
    name: "stream_clients",
    help: "connected live-stream clients",
    registers: [registry],
    collect() {
      this.set(stats().clients);
    },
  });
  new Gauge({
    name: "stream_slow_clients_dropped",
    help: "live-stream clients dropped for not reading, since start",
    registers: [registry],
    collect() {
      this.set(stats().droppedSlow);
    },
  });
}
