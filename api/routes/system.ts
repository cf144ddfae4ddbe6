// Operator endpoints: liveness, readiness, Prometheus metrics.
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../http/env";
import { METRICS_CONTENT_TYPE, metricsText } from "../http/metrics";

const Health = z.object({ ok: z.boolean() }).openapi("Health");
const Readiness = z.object({ ok: z.boolean(), database: z.boolean(), indexer: z.boolean() }).openapi("Readiness", {
  description:
    "`indexer` is true once Ponder's views exist (its backfill is done) and, when INDEXER_URL is set, Ponder answers /ready",
});

const healthRoute = createRoute({
  method: "get",
  path: "/health",
  operationId: "getHealth",
  security: [],
  tags: ["Operations"],
  summary: "The process is up",
  responses: { 200: { description: "up", content: { "application/json": { schema: Health } } } },
});

const readyRoute = createRoute({
  method: "get",
  path: "/ready",
  operationId: "getReadiness",
  security: [],
  tags: ["Operations"],
  summary: "The database is reachable and the indexer is ready",
  responses: {
    200: { description: "ready", content: { "application/json": { schema: Readiness } } },
    503: { description: "not ready", content: { "application/json": { schema: Readiness } } },
  },
});

const metricsRoute = createRoute({
  method: "get",
  path: "/metrics",
  operationId: "getMetrics",
  security: [],
  tags: ["Operations"],
  summary: "Prometheus metrics",
  responses: {
    200: { description: "metrics in the Prometheus text format", content: { "text/plain": { schema: z.string() } } },
  },
});

export const systemRoutes = new OpenAPIHono<AppEnv>()
  .openapi(healthRoute, (c) => c.json({ ok: true }, 200))
  .openapi(readyRoute, async (c) => {
    const views = c.var.config.VIEWS_SCHEMA;
    const database = await c.var.db.pool
      .query("SELECT to_regclass($1) IS NOT NULL AS indexed", [`"${views}".trade`])
      .then((result) => ({ reachable: true, indexed: Boolean(result.rows[0].indexed) }))
      .catch(() => ({ reachable: false, indexed: false }));
    const indexerUrl = c.var.config.INDEXER_URL;
    const indexerAnswers = indexerUrl
      ? await fetch(`${indexerUrl}/ready`, { signal: AbortSignal.timeout(2000) }).then(
          (r) => r.ok,
          () => false,
        )
      : true;
    const indexer = database.indexed && indexerAnswers;
    const ok = database.reachable && indexer;
    return c.json({ ok, database: database.reachable, indexer }, ok ? 200 : 503);
  })
  .openapi(metricsRoute, async (c) => c.text(await metricsText(), 200, { "content-type": METRICS_CONTENT_TYPE }));
