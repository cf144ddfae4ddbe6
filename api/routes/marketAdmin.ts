import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { type Address, getAddress, keccak256, toHex } from "viem";
import { MAX_B_USDC, MAX_FEE_BPS, MAX_OUTCOMES, MIN_B_USDC, MIN_OUTCOMES, toUsdcUnits } from "../../constants";
import { deployMarket, MarketRevertedError, predictedMarketAddress, settleMarket } from "../chain/marketOperator";
import { BEARER_AUTH, requireAdmin, requireUser } from "../http/auth";
import type { AppEnv } from "../http/env";
import {
  ApiError,
  badRequest,
  chainUnavailable,
  errorResponses,
  marketAlreadyActive,
  marketNotFound,
} from "../http/errors";
import { honourIdempotencyKey } from "../http/idempotency";
import { ADMIN_WRITE_LIMIT_NOTE, limitAdminWrites } from "../http/writeLimits";
import { MarketSlug, SlugParam, Text } from "./schemas";

const DraftBody = z
  .object({
    slug: MarketSlug,
    title: Text(200),
    description: Text(5000).openapi({ description: "resolution wording" }),
    outcomes: z
      .array(Text(60))
      .min(MIN_OUTCOMES)
      .max(MAX_OUTCOMES)
      .refine((names) => new Set(names).size === names.length, "outcome names must be unique")
      .refine((names) => !names.includes("timestamp"), "`timestamp` is reserved by price points"),
    closesAt: z.iso.datetime({ offset: true }),
    b: z.number().min(MIN_B_USDC).max(MAX_B_USDC).default(1000).openapi({
      description:
        "the LMSR liquidity parameter b, in USDC: larger b moves prices less per trade; the house funds b·ln n at activation, its worst-case loss (not to be confused with a market's `liquidity`, the USDC it holds)",
      example: 1000,
    }),
    feeBps: z.number().int().min(0).max(MAX_FEE_BPS).default(50),
  })
  .openapi("MarketDraft");

const Activation = z
  .object({
    slug: z.string(),
    status: z.literal("active"),
    contractAddress: z.string(),
    chainId: z.number(),
    txHash: z.string(),
  })
  .openapi("MarketActivation");
const Settlement = z
  .object({
    slug: z.string(),
    status: z.enum(["resolved", "voided"]),
    resolvedOutcome: z.string().nullable(),
    txHash: z.string(),
  })
  .openapi("MarketSettlement");

const createDraftRoute = createRoute({
  method: "post",
  path: "/api/markets",
  operationId: "createMarketDraft",
  tags: ["Market lifecycle"],
  summary: "Create a draft market (admin)",
  description: ADMIN_WRITE_LIMIT_NOTE,
  security: BEARER_AUTH,
  middleware: [requireUser(), requireAdmin(), limitAdminWrites(), honourIdempotencyKey()] as const,
  request: { body: { required: true, content: { "application/json": { schema: DraftBody } } } },
  responses: {
    201: {
      description: "the draft, status pending",
      content: {
        "application/json": {
          schema: z.strictObject({
            slug: z.string(),
            id: z.string(),
            status: z.literal("pending"),
            contractAddress: z.string(),
          }),
        },
      },
    },
    ...errorResponses(400, 401, 403, 409, 413, 415, 429, 503),
  },
});

const activateRoute = createRoute({
  method: "post",
  path: "/api/markets/{slug}/activate",
  operationId: "activateMarket",
  tags: ["Market lifecycle"],
  summary: "Deploy the contract of a pending market",
  description: `Any authenticated user, as the specification has it. The operator deploys the market through the factory (CREATE2, salted by the slug) and funds its subsidy; the answer comes once the deployment is mined. ${ADMIN_WRITE_LIMIT_NOTE}`,
  security: BEARER_AUTH,
  middleware: [requireUser(), limitAdminWrites(), honourIdempotencyKey()] as const,
  request: { params: SlugParam },
  responses: {
    200: { description: "deployed", content: { "application/json": { schema: Activation } } },
    ...errorResponses(400, 401, 404, 409, 413, 415, 429, 503),
  },
});

const settlementRoute = {
  method: "post" as const,
  tags: ["Market lifecycle"],
  security: BEARER_AUTH,
  description: ADMIN_WRITE_LIMIT_NOTE,
  middleware: [requireUser(), requireAdmin(), limitAdminWrites(), honourIdempotencyKey()],
  responses: {
    200: { description: "settled on chain", content: { "application/json": { schema: Settlement } } },
    ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429, 503),
  },
};

const resolveRoute = createRoute({
  ...settlementRoute,
  path: "/api/markets/{slug}/resolve",
  operationId: "resolveMarket",
  summary: "Resolve a market to its winning outcome (admin); an active market is closed first",
  request: {
    params: SlugParam,
    body: { required: true, content: { "application/json": { schema: z.strictObject({ outcome: Text(60) }) } } },
  },
});

const voidRoute = createRoute({
  ...settlementRoute,
  path: "/api/markets/{slug}/void",
  operationId: "voidMarket",
  summary: "Void a market (admin): every outcome token then redeems at 1/n",
  request: { params: SlugParam },
});

const requireOperator = (c: { var: AppEnv["Variables"] }) => {
  const chain = c.var.chain;
  if (!chain?.operator) throw chainUnavailable();
  return chain;
};

export const marketAdminRoutes = new OpenAPIHono<AppEnv>()
  .openapi(createDraftRoute, async (c) => {
    const body = c.req.valid("json");
    const chain = requireOperator(c);
    if (Date.parse(body.closesAt) <= Date.now()) throw badRequest("closesAt", "must be in the future");
    const contractAddress = await predictedMarketAddress(chain, body.slug);
    const created = await c.var.db.drafts.create({
      slug: body.slug,
      id: keccak256(toHex(body.slug)),
      title: body.title,
      description: body.description,
      outcomes: body.outcomes,
      closesAt: new Date(body.closesAt),
      bUnits: toUsdcUnits(body.b),
      feeBps: body.feeBps,
      contractAddress,
      createdBy: c.var.user.id,
    });
    if (!created) throw new ApiError(409, "slug_taken", "a market with this slug exists");
    return c.json(
      { slug: body.slug, id: keccak256(toHex(body.slug)), status: "pending" as const, contractAddress },
      201,
    );
  })
  .openapi(activateRoute, async (c) => {
    const { slug } = c.req.valid("param");
    const chain = requireOperator(c);
    const draft = await c.var.db.drafts.find(slug);
    const market = await c.var.db.markets.bySlug(slug);
    if (!draft && !market) throw marketNotFound();
    if (market && market.status !== "pending") throw marketAlreadyActive();
    const existing = await chain.publicClient.getCode({ address: await predictedMarketAddress(chain, slug) });
    if (existing) throw marketAlreadyActive();
    try {
      const { address, txHash } = await deployMarket(chain, {
        slug,
        title: draft!.title,
        description: draft!.description,
        outcomes: draft!.outcomes,
        closesAt: draft!.closes_at,
        b: BigInt(draft!.b),
        feeBps: draft!.fee_bps,
      });
      return c.json(
        {
          slug,
          status: "active" as const,
          contractAddress: getAddress(address),
          chainId: chain.deployment.chainId,
          txHash,
        },
        200,
      );
    } catch (error) {
      if (error instanceof MarketRevertedError && error.reason === "MarketExists") throw marketAlreadyActive();
      if (error instanceof MarketRevertedError)
        throw new ApiError(409, "activation_refused", error.message, undefined, { cause: error });
      throw error;
    }
  })
  .openapi(resolveRoute, async (c) =>
    settle(c as unknown as Context<AppEnv>, c.req.valid("param").slug, c.req.valid("json")),
  )
  .openapi(voidRoute, async (c) => settle(c as unknown as Context<AppEnv>, c.req.valid("param").slug, undefined));

async function settle(c: Context<AppEnv>, slug: string, resolve: { outcome?: string } | undefined) {
  const chain = requireOperator(c);
  const market = await c.var.db.markets.bySlug(slug);
  if (!market?.contract_address) throw marketNotFound();
  if (market.status === "resolved" || market.status === "voided")
    throw new ApiError(409, "already_settled", `the market is already ${market.status}`);
  let action: { resolve: number } | "void" = "void";
  if (resolve) {
    const index = market.outcomes.indexOf(resolve.outcome ?? "");
    if (index < 0) throw badRequest("outcome", `not an outcome of this market (${market.outcomes.join(", ")})`);
    action = { resolve: index };
  }
  try {
    // An active market is closed first: it may resolve only once trading has stopped.
    const txHash = await settleMarket(chain, market.contract_address as Address, action, market.status === "active");
    return c.json(
      {
        slug,
        status: action === "void" ? ("voided" as const) : ("resolved" as const),
        resolvedOutcome: resolve?.outcome ?? null,
        txHash,
      },
      200 as const,
    );
  } catch (error) {
    if (error instanceof MarketRevertedError)
      throw new ApiError(409, "settlement_refused", error.message, undefined, { cause: error });
    throw error;
  }
}
