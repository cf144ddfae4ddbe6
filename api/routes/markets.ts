import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { getAddress } from "viem";
import { usdcNumber } from "../../constants";
import type { MarketRow } from "../db/markets";
import { byOutcome, isoFromSeconds } from "../format";
import type { AppEnv } from "../http/env";
import { errorResponses, marketNotFound } from "../http/errors";
import { asciiJsonText } from "../http/jsonText";
import { fillPriceSeries, MAX_PRICE_POINTS, priceHistoryJson, priceWindow } from "../priceSeries";
import { SlugParam } from "./schemas";

export const MAX_MARKETS_LIMIT = 200;

const MarketStatus = z.enum(["pending", "active", "closed", "resolved", "voided"]).openapi({
  description:
    "`pending`: a draft without a contract; `active`: open for trading; `closed`: past closesAt or closed early, not yet resolved; `resolved`: the winner is set (see resolvedOutcome); `voided`: cancelled, every token redeems at 1/n.",
});

const MarketListEntry = z
  .object({
    id: z.string().openapi({ description: "keccak256(slug) as 0x-hex: the same before and after activation" }),
    slug: z.string().openapi({ example: "fed-cuts-rates-march-2027" }),
    title: z.string(),
    status: MarketStatus,
    outcomes: z.array(z.string()).openapi({ example: ["Yes", "No"] }),
    prices: z.record(z.string(), z.number()).openapi({
      description: "USDC per token for each outcome, keyed by outcome name",
      example: { Yes: 0.62, No: 0.38 },
    }),
    volume: z.number().openapi({ description: "USDC traded, fees included" }),
    liquidity: z.number().openapi({ description: "USDC held by the market contract" }),
    createdAt: z.string().openapi({ format: "date-time" }),
    closesAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("MarketListEntry");

const MarketDetail = MarketListEntry.extend({
  description: z.string().openapi({ description: "resolution wording" }),
  contractAddress: z.string().nullable().openapi({
    description:
      "the market contract; for a draft, the CREATE2 address activation will deploy to (null if not known yet)",
  }),
  chainId: z.number().openapi({ example: 2010111 }),
  resolvedOutcome: z
    .string()
    .nullable()
    .openapi({ description: "the winning outcome's name once resolved, otherwise null" }),
  b: z.number().openapi({
    description:
      "the LMSR liquidity parameter b, in USDC: buying an outcome from price p to price t costs b·ln((1−p)/(1−t)) USDC before the fee",
    example: 1000,
  }),
  feeBps: z.number().int().openapi({
    description: "the trading fee in basis points: included in a buy's amount, deducted from a sale's proceeds",
    example: 50,
  }),
}).openapi("MarketDetail");

const listRoute = createRoute({
  method: "get",
  path: "/api/markets",
  operationId: "listMarkets",
  security: [],
  tags: ["Markets"],
  summary: "List markets",
  description: `Newest first. Drafts (status \`pending\`) are listed with the indexed markets. \`limit\` is at most ${MAX_MARKETS_LIMIT}.`,
  request: {
    query: z.object({
      status: MarketStatus.optional(),
      limit: z.coerce.number().int().min(1).max(MAX_MARKETS_LIMIT).default(50),
      offset: z.coerce.number().int().min(0).default(0),
    }),
  },
  responses: {
    200: {
      description: "a page of markets",
      content: {
        "application/json": {
          schema: z
            .object({ markets: z.array(MarketListEntry), total: z.number(), limit: z.number(), offset: z.number() })
            .openapi("MarketList"),
        },
      },
    },
    ...errorResponses(400, 503),
  },
});

const detailRoute = createRoute({
  method: "get",
  path: "/api/markets/{slug}",
  operationId: "getMarket",
  security: [],
  tags: ["Markets"],
  summary: "Market detail",
  request: { params: SlugParam },
  responses: {
    200: { description: "the market", content: { "application/json": { schema: MarketDetail } } },
    ...errorResponses(400, 404, 503),
  },
});

const PriceHistory = z
  .object({
    slug: z.string(),
    interval: z.enum(["1h", "4h", "1d"]),
    prices: z.array(
      z.record(z.string(), z.union([z.string(), z.number()])).openapi({
        description:
          "`timestamp`, the start of the bucket (ISO 8601), and one number per outcome, named by the outcome",
        example: { timestamp: "2026-11-22T10:00:00.000Z", Yes: 0.62, No: 0.38 },
      }),
    ),
  })
  .openapi("PriceHistory");
type PriceHistory = z.infer<typeof PriceHistory>;

const pricesRoute = createRoute({
  method: "get",
  path: "/api/markets/{slug}/prices",
  operationId: "getMarketPrices",
  security: [],
  tags: ["Markets"],
  summary: "Price history",
  description: `One point per bucket from \`from\` (default: the market's creation, or as far back as the point limit allows) to \`to\` (default: now, or the latest trade if later); each point is the last price in its bucket, and a bucket without trades carries the previous price forward. At most ${MAX_PRICE_POINTS} points: a longer range is a 400 naming \`from\`.`,
  request: {
    params: SlugParam,
    query: z.object({
      interval: z.enum(["1h", "4h", "1d"]).default("1h"),
      from: z.iso.datetime({ offset: true }).optional().openapi({ example: "2026-11-01T00:00:00Z" }),
      to: z.iso.datetime({ offset: true }).optional(),
    }),
  },
  responses: {
    200: {
      description: "price points, oldest first",
      content: {
        "application/json": {
          schema: PriceHistory,
        },
      },
    },
    ...errorResponses(400, 404, 503),
  },
});

const uniformPrices = (count: number) => Array<number>(count).fill(1 / count);

function listEntry(row: MarketRow) {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    status: row.status as z.infer<typeof MarketStatus>,
    outcomes: row.outcomes,
    prices: byOutcome(row.outcomes, row.prices ?? uniformPrices(row.outcomes.length)),
    volume: usdcNumber(row.volume),
    liquidity: usdcNumber(row.liquidity),
    createdAt: isoFromSeconds(row.created_at),
    closesAt: isoFromSeconds(row.closes_at),
  };
}

export const marketRoutes = new OpenAPIHono<AppEnv>()
  .openapi(listRoute, async (c) => {
    const { status, limit, offset } = c.req.valid("query");
    const { total, markets } = await c.var.db.markets.list({ status, limit, offset });
    return c.json({ markets: markets.map(listEntry), total, limit, offset }, 200);
  })
  .openapi(detailRoute, async (c) => {
    const row = await c.var.db.markets.bySlug(c.req.valid("param").slug);
    if (!row) throw marketNotFound();
    return c.json(
      {
        ...listEntry(row),
        description: row.description,
        contractAddress: row.contract_address && getAddress(row.contract_address),
        chainId: c.var.config.CHAIN_ID,
        resolvedOutcome: row.resolved_outcome === null ? null : (row.outcomes[row.resolved_outcome] ?? null),
        b: usdcNumber(row.b),
        feeBps: row.fee_bps,
      },
      200,
    );
  })
  .openapi(pricesRoute, async (c) => {
    const { interval, from, to } = c.req.valid("query");
    const row = await c.var.db.markets.bySlug(c.req.valid("param").slug);
    if (!row) throw marketNotFound();
    const window = priceWindow({
      interval,
      fromSeconds: from ? Math.floor(Date.parse(from) / 1000) : undefined,
      toSeconds: to ? Math.floor(Date.parse(to) / 1000) : Math.floor(Date.now() / 1000),
      createdSeconds: Number(row.created_at),
    });
    if (row.status === "pending" || !window) return c.json({ slug: row.slug, interval, prices: [] }, 200);

    // Without `to`, the series runs to now, or to the latest trade if the chain's clock is ahead.
    const upTo = to ? window.last : Number.MAX_SAFE_INTEGER;
    const candles = await c.var.db.prices.candles(
      row.contract_address!,
      row.outcomes.length,
      interval,
      window.first,
      upTo,
    );
    const points = fillPriceSeries({
      window,
      interval,
      end: to ? window.last : Math.max(window.last, candles.at(-1)?.start ?? window.last),
      candles,
      opening: uniformPrices(row.outcomes.length),
    });
    return asciiJsonText<PriceHistory>(
      c,
      priceHistoryJson({ slug: row.slug, interval, outcomes: row.outcomes, points }),
    );
  });
