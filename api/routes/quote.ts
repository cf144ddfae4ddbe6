import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../http/env";
import { errorResponses } from "../http/errors";
import { quote } from "../trading/quote";
import { MarketSlug, Text } from "./schemas";

const Quote = z
  .object({
    marketSlug: z.string(),
    outcome: z.string(),
    side: z.enum(["buy", "sell"]),
    amount: z.number().openapi({ description: "as asked: USDC to spend (buy) or tokens to sell (sell)" }),
    tokens: z.number().openapi({ description: "outcome tokens received (buy) or sold (sell)" }),
    usdc: z.number().openapi({ description: "USDC paid (buy, fee included) or received (sell, after the fee)" }),
    fee: z.number().openapi({ description: "USDC of trading fee within `usdc`" }),
    avgPrice: z.number().openapi({ description: "usdc / tokens" }),
    price: z.number().openapi({ description: "the outcome's indexed price before the trade" }),
  })
  .openapi("TradeQuote");

const quoteRoute = createRoute({
  method: "get",
  path: "/api/trade/quote",
  operationId: "quoteTrade",
  security: [],
  tags: ["Trades"],
  summary: "What a buy or a sell would get now",
  description:
    "The market contract's own quote (quoteBuy / quoteSell) at the chain's latest block: what POST /api/trade/buy or /sell would fill at if nothing trades first. Send its `avgPrice` as `maxPrice` (buy) or `minPrice` (sell), perhaps with some slack, to refuse a worse fill. 400 naming `amount` when the market cannot fill it, `outcome` for an outcome not in the market; 404 for an unknown market or a draft; 409 when the market is not active; 503 without chain access.",
  request: {
    query: z.object({
      marketSlug: MarketSlug,
      outcome: Text(60),
      side: z.enum(["buy", "sell"]),
      amount: z.coerce
        .number()
        .positive()
        .refine((value) => /^\d+(\.\d{1,6})?$/.test(String(value)), { message: "must have at most 6 decimal places" })
        .openapi({ description: "USDC to spend, fee included (buy), or outcome tokens to sell (sell)", example: 10 }),
    }),
  },
  responses: {
    200: { description: "the quote", content: { "application/json": { schema: Quote } } },
    ...errorResponses(400, 404, 409, 503),
  },
});

export const quoteRoutes = new OpenAPIHono<AppEnv>().openapi(quoteRoute, async (c) =>
  c.json(await quote(c.var, c.req.valid("query")), 200),
);
