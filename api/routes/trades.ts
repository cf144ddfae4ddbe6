import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { usdcNumber } from "../../constants";
import { abbreviate, isoFromSeconds } from "../format";
import type { AppEnv } from "../http/env";
import { errorResponses, marketNotFound } from "../http/errors";
import { MarketSlug } from "./schemas";

const RecentTrade = z
  .object({
    txId: z.string().openapi({
      description: "the user operation hash for trades sent through the API, otherwise the transaction hash",
    }),
    marketSlug: z.string(),
    outcome: z.string(),
    side: z.enum(["buy", "sell"]),
    amount: z.number().openapi({ description: "USDC paid (buy, fee included) or received (sell, after the fee)" }),
    price: z.number().openapi({ description: "average USDC per token of this trade" }),
    trader: z.string().openapi({ description: "wallet address, abbreviated", example: "0x1234…abcd" }),
    timestamp: z.string().openapi({ format: "date-time" }),
  })
  .openapi("RecentTrade");

const recentRoute = createRoute({
  method: "get",
  path: "/api/trades/recent",
  operationId: "listRecentTrades",
  security: [],
  tags: ["Trades"],
  summary: "Most recent trades across markets",
  description:
    "Confirmed trades as indexed from the chain, newest first. `total` counts every indexed trade (of the market, with `marketSlug`). An unknown `marketSlug` is a 404; a draft has no trades.",
  request: {
    query: z.object({
      limit: z.coerce.number().int().min(1).max(100).default(20),
      marketSlug: MarketSlug.optional().openapi({ description: "only this market's trades" }),
    }),
  },
  responses: {
    200: {
      description: "recent trades",
      content: {
        "application/json": {
          schema: z.object({ trades: z.array(RecentTrade), total: z.number() }).openapi("RecentTrades"),
        },
      },
    },
    ...errorResponses(400, 404, 503),
  },
});

export const tradeRoutes = new OpenAPIHono<AppEnv>().openapi(recentRoute, async (c) => {
  const { limit, marketSlug } = c.req.valid("query");
  const found = marketSlug
    ? await c.var.db.trades.recentInMarket(marketSlug, limit)
    : await c.var.db.trades.recent(limit);
  if (!found && !(marketSlug && (await c.var.db.drafts.find(marketSlug)))) throw marketNotFound();
  const { total, trades } = found ?? { total: 0, trades: [] };
  return c.json(
    {
      trades: trades.map((t) => ({
        txId: t.user_op_hash ?? t.tx_hash,
        marketSlug: t.slug,
        outcome: t.outcome_name,
        side: t.is_buy ? ("buy" as const) : ("sell" as const),
        amount: usdcNumber(t.usdc_amount),
        price: t.avg_price,
        trader: abbreviate(t.trader),
        timestamp: isoFromSeconds(t.timestamp),
      })),
      total,
    },
    200,
  );
});
