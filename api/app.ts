// The Hono application: middleware, routes, the OpenAPI document and the error envelope.
import { OpenAPIHono } from "@hono/zod-openapi";
import { requestId } from "hono/request-id";
import type { Logger } from "pino";
import { usesLocalSecret } from "./auth/localToken";
import { createVerifier } from "./auth/verifier";
import type { ChainAccess } from "./chain/access";
import type { Config } from "./config";
import { agentDecisionQueries } from "./db/agentDecisions";
import { agentQueries } from "./db/agents";
import { bondVaultQueries } from "./db/bondVaults";
import { commentQueries } from "./db/comments";
import { idempotencyQueries } from "./db/idempotency";
import { draftQueries, marketQueries } from "./db/markets";
import { paymentQueries } from "./db/payments";
import type { Db } from "./db/pool";
import { postQueries } from "./db/posts";
import { priceQueries } from "./db/prices";
import { profileQueries } from "./db/profiles";
import { researchCorpusQueries } from "./db/researchCorpus";
import { submissionQueries } from "./db/submissions";
import { tipQueries } from "./db/tips";
import { tradeQueries } from "./db/trades";
import { walletQueries } from "./db/wallets";
import { limitBodies, requireJsonBodies } from "./http/body";
import { readCors } from "./http/cors";
import { docsPage } from "./http/docsPage";
import type { AppEnv } from "./http/env";
import { toApiError } from "./http/errorMapping";
import { ApiError, errorResponse, validationError } from "./http/errors";
import { type LimitStores, postgresLimitStores } from "./http/limitStores";
import { logRequests } from "./http/logging";
import { measureRequests } from "./http/metrics";
import { cacheReads, type ReadCache } from "./http/readCache";
import { limitReads } from "./http/readLimits";
import { securityHeaders } from "./http/securityHeaders";
import { serveExplorer } from "./http/static";
import { postRequestBytes } from "./journal/limits";
import { ViewCounter } from "./journal/viewCounter";
import { createPaidResearch } from "./research/paidResearch";
import type { ResearchProvider } from "./research/types";
import { agentRoutes } from "./routes/agents";
import { agentWriteRoutes } from "./routes/agentWrites";
import { bazaarRoutes } from "./routes/bazaar";
import { commentRoutes } from "./routes/comments";
import { devTokenRoutes } from "./routes/devToken";
import { houseAgentRoutes } from "./routes/houseAgents";
import { journalRoutes } from "./routes/journal";
import { marketAdminRoutes } from "./routes/marketAdmin";
import { marketRoutes } from "./routes/markets";
import { openapiIndexRoutes } from "./routes/openapiIndex";
import { profileRoutes } from "./routes/profile";
import { quoteRoutes } from "./routes/quote";
import { researchRoutes } from "./routes/research";
import { streamRoutes } from "./routes/stream";
import { systemRoutes } from "./routes/system";
import { tipRoutes } from "./routes/tips";
import { tradeWriteRoutes } from "./routes/trade";
import { tradeRoutes } from "./routes/trades";
import { walletRoutes } from "./routes/wallet";
import type { StreamHub } from "./stream/hub";
import type { StatusWaiters } from "./writes/statusWaiters";

export { OPENAPI_PATH } from "./routes/openapiIndex";

import { OPENAPI_PATH } from "./routes/openapiIndex";

export function createApp(options: {
  config: Config;
  pool: Db;
  logger: Logger;
  cache?: ReadCache;
  chain?: ChainAccess;
  stream?: StreamHub;
  /** Batches post views; without one (tests of single routes) views are written only on flush(). */
  postViews?: ViewCounter;
  /** Research providers instead of the configured ones (tests of failing and hanging providers). */
  researchProviders?: ResearchProvider[];
  /** Where the rate limits count (Redis when configured); PostgreSQL over `pool` without it. */
  limits?: LimitStores;
  /** Holds status requests that ask to wait; without it (no change listener) they answer at once. */
  statusWaiters?: StatusWaiters;
}) {
  const { config, pool, logger, chain, stream, statusWaiters } = options;
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
    posts: postQueries(pool, views),
    profiles: profileQueries(pool),
    comments: commentQueries(pool, views),
    tips: tipQueries(pool, views),
    payments: paymentQueries(pool),
    researchCorpus: researchCorpusQueries(pool, views),
    agentDecisions: agentDecisionQueries(pool),
    bondVaults: bondVaultQueries(pool, views),
    agents: agentQueries(pool, views),
  };
  const paidResearch = createPaidResearch({ config, db, logger, providers: options.researchProviders });
  const verifyToken = createVerifier(config);
  const limits = options.limits ?? postgresLimitStores(pool, logger);
  const postViews =
    options.postViews ??
    new ViewCounter({
      flushMs: config.JOURNAL_VIEW_FLUSH_MS,
      write: (counts) => db.posts.addViews(counts),
      onError: (error) => logger.warn({ err: error }, "post views not written; kept for the next flush"),
    });

  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error.issues);
    },
  });

  app.use(requestId());
  app.use(securityHeaders());
  app.use(measureRequests());
  app.use(logRequests(logger));
  app.use(async (c, next) => {
    c.set("config", config);
    c.set("db", db);
    c.set("verifyToken", verifyToken);
    c.set("postViews", postViews);
    c.set("limits", limits);
    if (options.cache) c.set("readCache", options.cache);
    if (chain) c.set("chain", chain);
    if (stream) c.set("stream", stream);
    if (statusWaiters) c.set("statusWaiters", statusWaiters);
    c.set("paidResearch", paidResearch);
    await next();
  });
  app.use(serveExplorer({ localSignIn: usesLocalSecret(config) }));
  app.use("/api/*", readCors());
  app.use(limitReads());
  const limitUsualBodies = limitBodies(config.MAX_BODY_BYTES);
  const limitPostBodies = limitBodies(postRequestBytes(config.JOURNAL_MAX_LEN, config.MAX_BODY_BYTES));
  app.use((c, next) => (c.req.path === "/api/blog" ? limitPostBodies : limitUsualBodies)(c, next), requireJsonBodies());
  if (options.cache) {
    // Not /api/blog/{id}: each read of a post counts a view.
    for (const path of [
      "/api/markets",
      "/api/markets/*",
      "/api/trades/recent",
      "/api/blog",
      "/api/blog/config",
      "/api/agents/*",
    ])
      app.use(path, cacheReads(options.cache));
  }

  app.route("/", systemRoutes);
  app.route("/", marketRoutes);
  app.route("/", marketAdminRoutes);
  app.route("/", tradeRoutes);
  app.route("/", walletRoutes);
  app.route("/", tradeWriteRoutes);
  app.route("/", quoteRoutes);
  app.route("/", streamRoutes);
  app.route("/", journalRoutes);
  app.route("/", profileRoutes);
  app.route("/", commentRoutes);
  app.route("/", tipRoutes);
  app.route("/", researchRoutes);
  app.route("/", bazaarRoutes);
  app.route("/", agentRoutes);
  app.route("/", agentWriteRoutes);
  app.route("/", devTokenRoutes);
  app.route("/", houseAgentRoutes);

  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
  });
  app.doc31(OPENAPI_PATH, {
    openapi: "3.1.0",
    // Relative: the operations are served by whichever host served this document.
    servers: [{ url: "/", description: "this service" }],
    info: {
      title: "Prediction market API",
      version: "0.1.0",
      description:
        'Markets, trades and prices of the prediction-market test network (chain id 2010111), served from chain events indexed by Ponder. Every error is `{"error":{"code","message","details"}}`; a bad parameter is a 400 whose `details.parameter` names it. Amounts are decimal USDC; prices are USDC per outcome token, between 0 and 1. Reads (GET and HEAD) are limited per client address across all API processes (12,000 a minute by default): past the limit every route answers 429 `rate_limited` with `Retry-After`, and counted answers carry the `RateLimit-Policy` and `RateLimit` headers.',
    },
  });
  app.route("/", openapiIndexRoutes);
  app.get("/docs", docsPage({ url: OPENAPI_PATH, pageTitle: "Prediction market API" }));

  app.notFound((c) =>
    errorResponse(c, new ApiError(404, "route_not_found", `no route for ${c.req.method} ${c.req.path}`)),
  );
  app.onError((error, c) => {
    const answer = toApiError(error);
    const log = c.var.log ?? logger;
    if (answer.code === "internal_error") log.error({ err: error }, "unhandled error");
    else if (answer.status >= 500) log.warn({ err: answer }, answer.message);
    return errorResponse(c, answer);
  });
  return app;
}
