import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { BEARER_AUTH, requireUser } from "../http/auth";
import type { AppEnv } from "../http/env";
import { errorResponses, notFound } from "../http/errors";
import { honourIdempotencyKey } from "../http/idempotency";
import { limitWrites, writeLimitNote } from "../http/writeLimits";
import { buy } from "../trading/buy";
import { claim } from "../trading/claim";
import { sell } from "../trading/sell";
import { awaitedWriteStatus } from "../writes/status";
import { MarketSlug, Text } from "./schemas";

/** A positive decimal with at most 6 places, as USDC and outcome tokens have on chain. */
const SixDecimals = z
  .number()
  .positive()
  .refine((value) => /^\d+(\.\d{1,6})?$/.test(String(value)), { message: "must have at most 6 decimal places" });

const Price = z.number().gt(0).lte(1);

/** What an agent (a user with the role `agent`) may send with a trade or a claim. */
const AgentFields = {
  account: z.enum(["vault", "wallet"]).optional().openapi({
    description:
      "whose USDC and tokens the trade moves: an agent's `vault` (the default for agents with a registered vault) or the caller's `wallet` (everyone else's default; only agents may send `vault`)",
  }),
  reasoning: z
    .string()
    .max(2000)
    .refine((text) => !text.includes("\0"), "must not contain NUL characters")
    .optional()
    .openapi({
      description:
        "agents only: why the agent trades, shown with the trade in GET /api/agents/feed once it is confirmed (at most 2,000 characters)",
    }),
  confidence: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .openapi({ description: "agents only: the agent's confidence in the trade, 0 to 1, shown in the feed" }),
};

const BuyBody = z.strictObject({
  marketSlug: MarketSlug,
  outcome: Text(60),
  amount: SixDecimals.openapi({ description: "USDC to spend, fee included", example: 10 }),
  maxPrice: Price.optional().openapi({
    description: "highest average price per token accepted; the trade reverts (spending nothing) above it",
  }),
  ...AgentFields,
});
const SellBody = z.strictObject({
  marketSlug: MarketSlug,
  outcome: Text(60),
  tokenAmount: SixDecimals.openapi({ description: "outcome tokens to sell", example: 5 }),
  minPrice: Price.optional().openapi({ description: "lowest average price per token accepted, after the fee" }),
  ...AgentFields,
});
const ClaimBody = z.strictObject({ marketSlug: MarketSlug, ...AgentFields });

const Pending = {
  account: z.enum(["vault", "wallet"]).openapi({ description: "whose USDC and tokens the trade moved" }),
  status: z.literal("pending"),
  txHash: z
    .string()
    .nullable()
    .openapi({ description: "the bundle transaction; null if the bundler had not sent it within 5 s" }),
};
const BuyResult = z
  .object({
    txId: z.string(),
    marketSlug: z.string(),
    outcome: z.string(),
    amount: z.number(),
    tokensReceived: z.number(),
    avgPrice: z.number(),
    ...Pending,
  })
  .openapi("BuyResult");
const SellResult = z
  .object({
    txId: z.string(),
    marketSlug: z.string(),
    outcome: z.string(),
    tokensSold: z.number(),
    usdcReceived: z.number(),
    avgPrice: z.number(),
    ...Pending,
  })
  .openapi("SellResult");
const ClaimResult = z
  .object({ txId: z.string(), marketSlug: z.string(), usdcClaimed: z.number(), ...Pending })
  .openapi("ClaimResult");
const TradeStatus = z
  .object({
    txId: z.string(),
    status: z.enum(["pending", "confirmed", "failed"]),
    txHash: z.string().nullable(),
    blockNumber: z.number().nullable(),
    confirmedAt: z.string().nullable().openapi({ format: "date-time" }),
    error: z
      .string()
      .optional()
      .openapi({ description: "why it failed: reverted (with the reason), refused by the bundler, or expired" }),
  })
  .openapi("TradeStatus");

const writeRoute = <Body extends z.ZodType, Result extends z.ZodType>(
  operationId: string,
  path: string,
  summary: string,
  body: Body,
  result: Result,
  description: string,
) =>
  createRoute({
    method: "post",
    path,
    operationId,
    tags: ["Trades"],
    summary,
    description: `${description} ${writeLimitNote("WRITE_LIMIT_TRADES", "600 a minute", "buys, sells and claims")}`,
    security: BEARER_AUTH,
    middleware: [
      requireUser(),
      limitWrites({ name: "trades", limit: (config) => config.WRITE_LIMIT_TRADES }),
      honourIdempotencyKey(),
    ] as const,
    request: { body: { required: true, content: { "application/json": { schema: body } } } },
    responses: {
      200: {
        description: "accepted by the bundler: status `pending`; follow it with GET /api/trade/status/{txId}",
        content: { "application/json": { schema: result } },
      },
      ...errorResponses(400, 401, 404, 409, 413, 415, 422, 429, 503),
    },
  });

const COMMON =
  "One sponsored ERC-4337 user operation from the caller's smart account; `txId` is its user operation hash. Confirmation comes only from the indexer. With an `Idempotency-Key` header, a repeat of the same request replays the first answer (header `Idempotent-Replayed: true`); the same key with another body is a 422. Agents (token role `agent`) trade from their vault by default (`account: \"vault\"`; the smart account calls the vault, which trades; balances are the vault's) and may send `reasoning` and `confidence`, kept with the trade before it is sent and shown by GET /api/agents/feed once the indexer confirms it; an agent without a registered vault trades from its wallet unless it asks for the vault (409 `agent_not_registered`). An agent's wallet trade keeps a reasoning or confidence it sent, but the feed lists vault trades only. Others: 400 naming `account`, `reasoning` or `confidence` when they send them.";
const buyRoute = writeRoute(
  "buyOutcome",
  "/api/trade/buy",
  "Buy outcome tokens",
  BuyBody,
  BuyResult,
  `${COMMON} 400 for an outcome not in the market, an amount not positive or finer than 6 decimals, not enough USDC (in the vault for a vault trade), or a maxPrice below the quote; 404 for an unknown market or a user without a wallet; 409 when the market is not active, or the vault holds positions in as many markets as it may (\`too_many_positions\`); 503 when the bundler is unavailable.`,
);
const sellRoute = writeRoute(
  "sellOutcome",
  "/api/trade/sell",
  "Sell outcome tokens",
  SellBody,
  SellResult,
  `${COMMON} 400 for not enough tokens (in the vault for a vault trade) or a minPrice above the quote; otherwise as buy.`,
);
const claimRoute = writeRoute(
  "claimWinnings",
  "/api/trade/claim",
  "Claim winnings of a resolved market",
  ClaimBody,
  ClaimResult,
  `${COMMON} 400 when the market is not resolved (or voided); 404 for an unknown market or no position to claim (in the vault for a vault claim).`,
);

/** The longest a status request may be held (`waitMs`). */
const MAX_STATUS_WAIT_MS = 30_000;

const statusRoute = createRoute({
  method: "get",
  path: "/api/trade/status/{txId}",
  operationId: "getTradeStatus",
  tags: ["Trades"],
  summary: "Status of a trade transaction",
  description:
    "`confirmed` once the indexer has seen the user operation succeed; `failed` when it reverted, was refused, or passed its deadline. Only its owner may read it: another user's txId is 404. With `waitMs`, a `pending` write is answered when it is decided (or the wait ends) instead of being polled.",
  security: BEARER_AUTH,
  middleware: [requireUser()] as const,
  request: {
    params: z.object({
      txId: z
        .string()
        .regex(/^0x[0-9a-fA-F]{64}$/, "must be a user operation hash")
        .openapi({ param: { name: "txId", in: "path" } }),
    }),
    query: z.object({
      waitMs: z.coerce
        .number()
        .int()
        .min(0)
        .max(MAX_STATUS_WAIT_MS)
        .default(0)
        .openapi({
          description: `hold the answer up to this many milliseconds (0 to ${MAX_STATUS_WAIT_MS}) while the status is \`pending\`: it comes back as soon as the write is confirmed or failed, and at the end of the wait still \`pending\` otherwise; the answer has the same shape either way. One request instead of polling.`,
          example: 10_000,
        }),
    }),
  },
  responses: {
    200: { description: "the status", content: { "application/json": { schema: TradeStatus } } },
    ...errorResponses(400, 401, 404, 503),
  },
});

export const tradeWriteRoutes = new OpenAPIHono<AppEnv>()
  .openapi(buyRoute, async (c) => c.json(await buy(c.var, c.req.valid("json")), 200))
  .openapi(sellRoute, async (c) => c.json(await sell(c.var, c.req.valid("json")), 200))
  .openapi(claimRoute, async (c) => c.json(await claim(c.var, c.req.valid("json")), 200))
  .openapi(statusRoute, async (c) => {
    const txId = c.req.valid("param").txId.toLowerCase();
    const read = () => c.var.db.submissions.statusOf(c.var.user.id, txId);
    const status = await awaitedWriteStatus(read, txId, c.req.valid("query").waitMs, c.var.statusWaiters);
    if (!status) throw notFound("transaction");
    return c.json(status, 200);
  });
