import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { getAddress } from "viem";
import { usdcNumber } from "../../constants";
import { isoFromSeconds } from "../format";
import { BEARER_AUTH, requireUser } from "../http/auth";
import type { AppEnv } from "../http/env";
import { errorResponses, notFound } from "../http/errors";
import { honourIdempotencyKey } from "../http/idempotency";
import { limitWrites } from "../http/writeLimits";
import { postIdOf, TipContext } from "../tipping/context";
import { tip } from "../tipping/tip";

export const MIN_TIP_USDC = 0.01;
export const MAX_TIPS_LIMIT = 100;

const TipAmount = z
  .number()
  .min(MIN_TIP_USDC)
  .max(1_000_000_000)
  .refine((value) => /^\d+(\.\d{1,6})?$/.test(String(value)), { message: "must have at most 6 decimal places" })
  .openapi({ description: `USDC, at least ${MIN_TIP_USDC}, at most 6 decimal places`, example: 1.5 });

const TipBody = z.strictObject({
  context: TipContext.openapi({ description: "what the tip is for: `blog:<post id>` tips the post's author" }),
  amount: TipAmount,
});

const TipSent = z
  .object({
    txId: z.string().openapi({ description: "the user operation hash; follow it with GET /api/trade/status/{txId}" }),
    txHash: z
      .string()
      .nullable()
      .openapi({ description: "the bundle transaction; null if the bundler had not sent it within 5 s" }),
    status: z.literal("pending"),
    context: z.string(),
    amount: z.number(),
    to: z.string().openapi({ description: "the author's smart-account address, which receives the USDC" }),
  })
  .openapi("TipSent");

const ConfirmedTip = z
  .object({
    txId: z.string().openapi({ description: "the user operation hash" }),
    userId: z.string().openapi({ description: "the tipper's user id" }),
    from: z.string().openapi({ description: "the tipper's smart account" }),
    to: z.string().openapi({ description: "the author's smart account" }),
    amount: z.number().openapi({ description: "USDC" }),
    txHash: z.string(),
    blockNumber: z.number(),
    confirmedAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("ConfirmedTip");

const sendRoute = createRoute({
  method: "post",
  path: "/api/tips",
  operationId: "sendTip",
  security: BEARER_AUTH,
  tags: ["Journal"],
  summary: "Tip a post's author in USDC",
  description:
    "One sponsored ERC-4337 user operation moving USDC from the caller's smart account to the author's (no ETH needed; the author's address is known before their wallet is opened). Answers `pending` like a trade: follow `txId` with GET /api/trade/status/{txId}; the tip is listed by GET /api/tips once the indexer has its transfer. 400 for tipping one's own post, not enough USDC (naming `amount`), or an amount below 0.01 or finer than 6 decimals; 404 for an unknown or archived post, or a caller without a wallet (`wallet_not_found`); 409 when the bundler refuses it; 503 when the chain or the bundler is unavailable. A user sends at most WRITE_LIMIT_TIPS tips per window (default 30 in 10 minutes, across all API processes): past it, 429 `rate_limited` with `Retry-After`; a refused tip does not count. With an `Idempotency-Key` header, a repeat replays the first answer.",
  middleware: [
    requireUser(),
    limitWrites({ name: "tips", limit: (config) => config.WRITE_LIMIT_TIPS }),
    honourIdempotencyKey(),
  ] as const,
  request: { body: { required: true, content: { "application/json": { schema: TipBody } } } },
  responses: {
    200: { description: "accepted by the bundler", content: { "application/json": { schema: TipSent } } },
    ...errorResponses(400, 401, 404, 409, 413, 415, 422, 429, 503),
  },
});

const listRoute = createRoute({
  method: "get",
  path: "/api/tips",
  operationId: "listTips",
  security: [],
  tags: ["Journal"],
  summary: "Confirmed tips of a post, and their total",
  description: `Only tips whose USDC transfer the indexer has seen, from the tipper's account to the author's for the amount sent, in a user operation that succeeded; never what the API sent. Newest first; \`count\` and \`tipsTotal\` cover every confirmed tip. \`limit\` is at most ${MAX_TIPS_LIMIT}. 404 for an unknown or archived post.`,
  request: {
    query: z.object({
      context: TipContext,
      limit: z.coerce.number().int().min(1).max(MAX_TIPS_LIMIT).default(50),
      offset: z.coerce.number().int().min(0).default(0),
    }),
  },
  responses: {
    200: {
      description: "the confirmed tips",
      content: {
        "application/json": {
          schema: z
            .object({
              context: z.string(),
              tips: z.array(ConfirmedTip),
              count: z.number().openapi({ description: "confirmed tips in all" }),
              tipsTotal: z.number().openapi({ description: "USDC of every confirmed tip" }),
              limit: z.number(),
              offset: z.number(),
            })
            .openapi("TipList"),
        },
      },
    },
    ...errorResponses(400, 404, 503),
  },
});

export const tipRoutes = new OpenAPIHono<AppEnv>()
  .openapi(sendRoute, async (c) => c.json(await tip(c.var, c.req.valid("json")), 200))
  .openapi(listRoute, async (c) => {
    const { context, limit, offset } = c.req.valid("query");
    const post = await c.var.db.posts.byId(postIdOf(context));
    if (!post) throw notFound("post");
    const confirmed = await c.var.db.tips.confirmed(post.id, { limit, offset });
    return c.json(
      {
        context,
        tips: confirmed.tips.map((row) => ({
          txId: row.user_op_hash,
          userId: row.tipper_id,
          from: getAddress(row.from_address),
          to: getAddress(row.to_address),
          amount: usdcNumber(row.amount),
          txHash: row.tx_hash,
          blockNumber: Number(row.block_number),
          confirmedAt: isoFromSeconds(row.timestamp),
        })),
        count: confirmed.count,
        tipsTotal: usdcNumber(confirmed.totalUnits),
        limit,
        offset,
      },
      200,
    );
  });
