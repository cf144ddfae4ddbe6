// The Hono application: middleware, routes, the OpenAPI document and the error envelope.
import { OpenAPIHono } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import { requestId } from "hono/request-id";
import type { Logger } from "pino";
import type { Config } from "./config";
import { draftQueries, marketQueries } from "./db/markets";
import type { Db } from "./db/pool";
import { priceQueries } from "./db/prices";
import { tradeQueries } from "./db/trades";
import { walletQueries } from "./db/wallets";
import { submissionQueries } from "./db/submissions";
import { idempotencyQueries } from "./db/idempotency";
import { createVerifier } from "./auth/verifier";
import type { ChainAccess } from "./chain/access";
import type { AppEnv } from "./http/env";
import { readCors } from "./http/cors";
import { ApiError, errorResponse, validationError } from "./http/errors";
import { logRequests } from "./http/logging";
import { measureRequests } from "./http/metrics";
import { cacheReads, type ReadCache } from "./http/readCache";
import { marketRoutes } from "./routes/markets";
import { marketAdminRoutes } from "./routes/marketAdmin";
import { openapiIndexRoutes } from "./routes/openapiIndex";
import { systemRoutes } from "./routes/system";
import { tradeRoutes } from "./routes/trades";
import { walletRoutes } from "./routes/wallet";
import { tradeWriteRoutes } from "./routes/trade";
import { streamRoutes } from "./routes/stream";
import type { StreamHub } from "./stream/hub";

export { OPENAPI_PATH } from "./routes/openapiIndex";
import { OPENAPI_PATH } from "./routes/openapiIndex";

export function createApp(options: { config: Config; pool: Db; logger: Logger; cache?: ReadCache; chain?: ChainAccess; stream?: StreamHub }) {
  const { config, pool, logger, chain, stream } = options;
  const views = config.VIEWS_SCHEMA;
  const db = {
    pool,
    markets: marketQueries(pool, views),
    drafts: draftQueries(pool, views),
    trades: tradeQueries(pool, views),
    prices: priceQueries(pool, views),
    wallets: walletQueries(pool),
    submissions: submissionQueries(pool, views),
    idempotency: idempotencyQueries(pool),
  };
  const verifyToken = createVerifier(config);

  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error.issues);
    },
  });

  app.use(requestId());
  app.use(measureRequests());
  app.use(logRequests(logger));
  app.use(async (c, next) => {
    c.set("config", config);
    c.set("db", db);
    c.set("verifyToken", verifyToken);
    if (chain) c.set("chain", chain);
    if (stream) c.set("stream", stream);
    await next();
  });
  app.use("/api/*", readCors());
  if (options.cache) {
    for (const path of ["/api/markets", "/api/markets/*", "/api/trades/recent"]) app.use(path, cacheReads(options.cache));
  }

  app.route("/", systemRoutes);
  app.route("/", marketRoutes);
  app.route("/", marketAdminRoutes);
  app.route("/", tradeRoutes);
  app.route("/", walletRoutes);
  app.route("/", tradeWriteRoutes);
  app.route("/", streamRoutes);

  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", { type: "http", scheme: "bearer", bearerFormat: "JWT" });
  app.doc31(OPENAPI_PATH, {
    openapi: "3.1.0",
    info: {
      title: "Prediction market API",
      version: "0.1.0",
      description:
        "Markets, trades and prices of the prediction-market test network (chain id 2010111), served from chain events indexed by Ponder. Every error is `{\"error\":{\"code\",\"message\",\"details\"}}`; a bad parameter is a 400 whose `details.parameter` names it. Amounts are decimal USDC; prices are USDC per outcome token, between 0 and 1.",
    },
  });
  app.route("/", openapiIndexRoutes);
  app.get("/docs", Scalar({ url: OPENAPI_PATH, pageTitle: "Prediction market API" }));

  app.notFound((c) => errorResponse(c, new ApiError(404, "route_not_found", `no route for ${c.req.method} ${c.req.path}`)));
  app.onError((error, c) => {
    if (error instanceof ApiError) return errorResponse(c, error);
    (c.var.log ?? logger).error({ err: error }, "unhandled error");
    return errorResponse(c, new ApiError(500, "internal_error", "internal error"));
  });
  return app;
}
