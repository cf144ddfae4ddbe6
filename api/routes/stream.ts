import type { HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { StreamEventType } from "../db/streamLog";
import type { AppEnv } from "../http/env";
import { ApiError, badRequest, errorResponses, marketNotFound } from "../http/errors";
import { MarketSlug } from "./schemas";

export const ConnectedEvent = z
  .object({ ok: z.literal(true), clientId: z.string(), ts: z.number().openapi({ description: "epoch milliseconds" }) })
  .openapi("StreamConnectedEvent");

export const TradeEvent = z
  .object({
    type: z.literal("trade"),
    id: z.string().openapi({ description: "the trade: `<txHash>-<logIndex>`" }),
    userId: z.string().openapi({ description: "the trader's wallet address (the API never reveals who signed in)" }),
    side: z.string().openapi({ description: "the outcome's name in upper case", example: "YES" }),
    amount: z
      .string()
      .openapi({ description: "USDC paid (buy, fee included) or received (sell), decimal", example: "12.5" }),
    question: z.string().openapi({ description: "the market's title" }),
    marketId: z.string(),
    entryPrice: z.number().openapi({ description: "average USDC per token of this trade" }),
    txHash: z.string(),
    createdAt: z.string().openapi({ format: "date-time", description: "the block's time" }),
    txId: z.string().openapi({
      description:
        "the user operation hash for trades sent through the API (as returned by buy/sell), otherwise the transaction hash",
    }),
    marketSlug: z.string(),
    outcome: z.string().openapi({ description: "the outcome's name as the market spells it" }),
    outcomeIndex: z.number().int(),
    action: z.enum(["BUY", "SELL"]),
    tokens: z.string().openapi({ description: "outcome tokens bought or sold, decimal" }),
    blockNumber: z.number().int(),
    logIndex: z.number().int(),
  })
  .openapi("StreamTradeEvent");

export const RetractEvent = z
  .object({
    type: z.literal("retract"),
    id: z.string().openapi({ description: "the id of the trade event that no longer holds" }),
    reason: z.literal("reorg"),
    marketSlug: z.string(),
    createdAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("StreamRetractEvent");

export const CommentEvent = z
  .object({
    type: z.literal("comment"),
    id: z.string(),
    userId: z.string(),
    targetType: z.enum(["market", "blog"]).openapi({ description: "as GET /api/comments names it" }),
    targetId: z.string().openapi({ description: "the market's slug or the post's id" }),
    body: z.string(),
    parentId: z.string().nullable().openapi({ description: "the comment replied to; null for a top-level comment" }),
    isDuel: z.boolean().openapi({ description: "a duel stance" }),
    createdAt: z.string().openapi({ format: "date-time" }),
    stance: z.string().nullable().openapi({
      description: "a duel's side: an outcome of the market, or `agree`/`disagree` on a post; null otherwise",
    }),
  })
  .openapi("StreamCommentEvent");

const FILTERABLE_TYPES = ["trade", "comment"] as const;

const StreamQuery = z.object({
  marketSlug: MarketSlug.optional().openapi({ description: "only this market's trades, retractions and comments" }),
  types: z.string().max(100).optional().openapi({
    description: "comma-separated subset of `trade,comment`; default both. Retractions come with `trade`.",
    example: "trade",
  }),
  lastEventId: z
    .string()
    .regex(/^\d{1,15}$/, "must be an event id")
    .optional()
    .openapi({
      description: "resume after this event id, for clients that cannot send the Last-Event-ID header; the header wins",
    }),
});

const StreamHeaders = z.object({
  "last-event-id": z
    .string()
    .regex(/^\d{1,15}$/, "must be an event id")
    .optional()
    .openapi({ description: "resume after this event id (EventSource sends it on reconnect)" }),
});

const streamRoute = createRoute({
  method: "get",
  path: "/api/trade/stream",
  operationId: "streamEvents",
  security: [],
  tags: ["Stream"],
  summary: "Live trades and comments (Server-Sent Events)",
  description: [
    "A persistent `text/event-stream`. Events:",
    "- `connected` first: `{ok, clientId, ts}`; its `id:` is the position the client starts from.",
    "- `trade` for every trade the indexer has seen confirmed on chain (StreamTradeEvent).",
    "- `retract` when a chain reorganisation undoes an announced trade: `id` names the trade (StreamRetractEvent).",
    "- `comment` when a comment is published (StreamCommentEvent).",
    "- `: ping` comment lines every 15 seconds.",
    "",
    "Every event has an `id:` that increases with each event. A client reconnecting with `Last-Event-ID` (or `?lastEventId=`) receives every event after that id, in order and once, as long as it is within the retention window (24 hours); older events are gone and such a client should reload through the REST reads. An id newer than the log's newest starts the client at the present.",
    "A client that does not read its stream (more than 1 MiB unsent) is disconnected and may resume with Last-Event-ID. Past the per-process client limit the answer is 503.",
  ].join("\n"),
  request: { query: StreamQuery, headers: StreamHeaders },
  responses: {
    200: {
      description: "the event stream; each event's `data:` is one of these JSON objects",
      content: { "text/event-stream": { schema: z.union([ConnectedEvent, TradeEvent, RetractEvent, CommentEvent]) } },
    },
    ...errorResponses(400, 404, 406, 503),
  },
});

function parseTypes(types: string | undefined): Set<StreamEventType> {
  const names = types === undefined ? [...FILTERABLE_TYPES] : types.split(",").map((name) => name.trim());
  const chosen = new Set<StreamEventType>();
  for (const name of names) {
    if (!(FILTERABLE_TYPES as readonly string[]).includes(name))
      throw badRequest("types", `unknown event type "${name}"; use trade, comment`);
    chosen.add(name as StreamEventType);
  }
  if (chosen.has("trade")) chosen.add("retract");
  return chosen;
}

const acceptsEventStream = (accept: string | undefined) =>
  accept === undefined || /(^|,)\s*(text\/event-stream|text\/\*|\*\/\*)\s*(;|,|$)/i.test(accept);

export const streamRoutes = new OpenAPIHono<AppEnv & { Bindings: HttpBindings }>().openapi(streamRoute, async (c) => {
  const stream = c.var.stream;
  const outgoing = c.env?.outgoing;
  if (!stream || !outgoing) throw new ApiError(503, "stream_unavailable", "the stream is not served by this process");
  if (!acceptsEventStream(c.req.header("accept")))
    throw new ApiError(406, "not_acceptable", "this endpoint answers text/event-stream");
  const query = c.req.valid("query");
  const resumeFrom = c.req.valid("header")["last-event-id"] ?? query.lastEventId;
  const types = parseTypes(query.types);
  if (
    query.marketSlug &&
    !(await c.var.db.markets.bySlug(query.marketSlug)) &&
    !(await c.var.db.drafts.find(query.marketSlug))
  ) {
    throw marketNotFound();
  }
  if (stream.stats.clients >= c.var.config.STREAM_MAX_CLIENTS) {
    throw new ApiError(503, "too_many_clients", "this process holds as many stream clients as it may; retry shortly");
  }
  await stream.attach(outgoing, {
    filter: { types, marketSlug: query.marketSlug },
    lastEventId: resumeFrom === undefined ? undefined : Number(resumeFrom),
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      // Proxies such as nginx would otherwise hold events back in their buffers.
      "x-accel-buffering": "no",
      "access-control-allow-origin": "*",
      "x-content-type-options": "nosniff",
      "x-request-id": c.var.requestId,
    },
  });
  return RESPONSE_ALREADY_SENT;
});
