import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { bondEntries } from "../agents/bondEntries";
import { agentDetailView, agentView, feedEntryView, houseAgentView } from "../agents/view";
import type { AppEnv } from "../http/env";
import { agentNotFound, errorResponses } from "../http/errors";
import { MarketSlug } from "./schemas";

export const MAX_ROSTER_LIMIT = 200;
export const MAX_BONDS_LIMIT = 200;
export const MAX_FEED_LIMIT = 100;

/** An agent's id: its account's (the vault manager's) address; any case is accepted, lowercase is served. */
export const AgentIdSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be an agent id (its account's address, 0x and 40 hex digits)")
  .openapi({ example: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8" });

const AsOf = z.number().int().openapi({
  description: "the chain block the indexer had committed when this answer was read: every figure is as of that block",
  example: 812,
});

const AgentStats = z
  .object({
    totalTrades: z.number().int().openapi({ description: "buys and sells of the agent's vault" }),
    winRate: z.number().openapi({
      description:
        "of the resolved markets the vault traded, the share where it made money (realized profit plus the winning tokens still held at 1 USDC, less the cost of the tokens still held, above 0); 0 when none",
    }),
    pnl: z.number().openapi({
      description:
        "USDC the vault's trading made, realized plus marked: realized profit of sales and claims, plus the tokens held valued as netAssetValue values them, less their cost. While no tokens were paid in kind at an unbond, this is netAssetValue + paid out to stakers + fees − bonded",
    }),
    avgPosition: z.number().openapi({ description: "mean USDC paid per buy; 0 without buys" }),
    volume: z.number().openapi({ description: "USDC paid for buys plus USDC received for sells" }),
    brier: z.number().nullable().openapi({
      description:
        "Brier score of the confidences the agent sent with its buys in markets now resolved: mean of (confidence − 1 if the outcome bought won, else 0)²; 0 is perfect. null when there is none",
    }),
  })
  .openapi("AgentStats");

const HouseAgent = z
  .object({
    id: z.string().openapi({ description: "the agent's account address, lowercase (the manager of its vault)" }),
    name: z.string(),
    persona: z.string(),
    strategy: z.string().openapi({ example: "momentum" }),
    status: z
      .enum(["active", "inactive"])
      .openapi({ description: "`inactive`: takes no new bonds; trades and unbonds go on" }),
    walletAddress: z
      .string()
      .openapi({ description: "the agent's account address, abbreviated", example: "0x7099…79c8" }),
    stats: AgentStats,
    vaultAddress: z.string().openapi({ description: "the agent's vault, which holds the bonded USDC and trades" }),
    house: z.boolean().openapi({ description: "operated by the house (registered by the operator)" }),
    feeBps: z
      .number()
      .int()
      .openapi({ description: "performance fee on a bond's profit above its high water, in basis points" }),
    lockupSeconds: z.number().int().openapi({ description: "seconds after bonding before a bond may be unbonded" }),
    netAssetValue: z.number().openapi({
      description:
        "USDC: the vault's cash plus its positions at the indexed prices, as AgentVault.netAssetValue computes it",
    }),
  })
  .openapi("HouseAgent");

const Agent = HouseAgent.extend({ createdAt: z.string().openapi({ format: "date-time" }) }).openapi("Agent");

const AgentDetail = Agent.extend({
  cash: z.number().openapi({ description: "USDC held by the vault" }),
  totalShares: z.number().openapi({ description: "the vault's shares outstanding (6 decimals, as USDC)" }),
  bonded: z.number().openapi({ description: "USDC bonded into the vault, ever" }),
  unbonded: z.number().openapi({ description: "USDC paid to unbonding stakers, after fees" }),
  feesPaid: z.number().openapi({ description: "USDC of performance fees paid to the agent" }),
  openPositions: z
    .array(
      z.object({
        marketSlug: z.string(),
        outcome: z.string(),
        tokens: z.number(),
        value: z.number().openapi({ description: "USDC at the indexed price (1 per winning token once resolved)" }),
      }),
    )
    .openapi({ description: "outcomes the vault holds tokens of, but losing outcomes of resolved markets" }),
}).openapi("AgentDetail");

const FeedEntry = z
  .object({
    id: z.string().openapi({ description: "`<txHash>-<logIndex>` of the chain event" }),
    agentId: z.string(),
    agentName: z.string(),
    marketSlug: z.string(),
    action: z.enum(["buy", "sell", "claim"]),
    outcome: z.string().openapi({ description: 'the outcome traded; "" for a claim' }),
    amount: z.number().openapi({
      description: "USDC paid (buy, fee included), received (sell, after the fee) or paid out (claim)",
    }),
    tokens: z.number().openapi({ description: "tokens bought, sold or redeemed" }),
    reasoning: z
      .string()
      .openapi({ description: 'what the agent said when it sent the trade; "" when it said nothing' }),
    confidence: z
      .number()
      .nullable()
      .openapi({ description: "the agent's confidence (0 to 1) when it sent one, otherwise null" }),
    priceAtDecision: z
      .number()
      .nullable()
      .openapi({ description: "the outcome's indexed price when the agent decided; null when unknown" }),
    timestamp: z.string().openapi({ format: "date-time" }),
    txHash: z.string(),
    txId: z.string().openapi({ description: "the user operation hash when sent through the API, otherwise txHash" }),
  })
  .openapi("AgentFeedEntry");

export const Bond = z
  .object({
    bondId: z.string(),
    agentId: z.string(),
    agentName: z.string(),
    staker: z.string().openapi({ description: "the staker's address, abbreviated", example: "0x3c44…93bc" }),
    stakerAddress: z.string().openapi({ description: "the staker's address in full" }),
    amountStaked: z.number().openapi({ description: "USDC staked for the shares still held" }),
    shares: z.number().openapi({ description: "the bond's shares (6 decimals, as USDC)" }),
    sharePercent: z.number().openapi({ description: "the bond's shares over the vault's, 0 to 1" }),
    currentValue: z.number().openapi({
      description:
        "USDC: the bond's share of the vault's net asset value at the indexed prices, less the fee it would owe (AgentVault.bondValue, to the unit)",
    }),
    unrealizedPnl: z.number().openapi({ description: "currentValue − amountStaked" }),
    liquidationValue: z.number().nullable().openapi({
      description:
        "USDC an unbond of the whole bond would pay at the indexed block (the vault's quoteUnbond: sales at the markets' curves, fee deducted; lockup aside). null when the chain node did not answer",
    }),
    lockupUntil: z.string().openapi({ format: "date-time" }),
    bondedAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Bond");

const rosterRoute = createRoute({
  method: "get",
  path: "/api/agents/roster",
  operationId: "listAgents",
  security: [],
  tags: ["Agents"],
  summary: "All registered agents with persona, strategy and stats",
  description: `Agents registered on chain, newest first. \`limit\` is at most ${MAX_ROSTER_LIMIT}.`,
  request: {
    query: z.object({
      status: z.enum(["active", "inactive"]).optional(),
      limit: z.coerce.number().int().min(1).max(MAX_ROSTER_LIMIT).default(50),
      offset: z.coerce.number().int().min(0).default(0),
    }),
  },
  responses: {
    200: {
      description: "a page of agents",
      content: {
        "application/json": {
          schema: z
            .object({ agents: z.array(Agent), total: z.number(), limit: z.number(), offset: z.number(), asOf: AsOf })
            .openapi("AgentRoster"),
        },
      },
    },
    ...errorResponses(400, 503),
  },
});

const houseRoute = createRoute({
  method: "get",
  path: "/api/agents/house",
  operationId: "listHouseAgents",
  security: [],
  tags: ["Agents"],
  summary: "House-operated agents (liquidity and market making)",
  description: "Every agent the operator registered as a house agent, newest first, without createdAt.",
  responses: {
    200: {
      description: "the house agents",
      content: {
        "application/json": {
          schema: z.object({ agents: z.array(HouseAgent), asOf: AsOf }).openapi("HouseAgents"),
        },
      },
    },
    ...errorResponses(503),
  },
});

const feedRoute = createRoute({
  method: "get",
  path: "/api/agents/feed",
  operationId: "listAgentFeed",
  security: [],
  tags: ["Agents"],
  summary: "Agents' recent trading decisions with their reasoning",
  description: `Every buy, sell and claim of an agent's vault as indexed from the chain, newest first, with the reasoning and confidence the agent sent with it (a trade sent straight to the chain has reasoning "" and confidence null). \`total\` counts the entries matching the filters. \`limit\` is at most ${MAX_FEED_LIMIT}.`,
  request: {
    query: z.object({
      agentId: AgentIdSchema.optional(),
      marketSlug: MarketSlug.optional(),
      limit: z.coerce.number().int().min(1).max(MAX_FEED_LIMIT).default(25),
    }),
  },
  responses: {
    200: {
      description: "feed entries",
      content: {
        "application/json": {
          schema: z.object({ feed: z.array(FeedEntry), total: z.number(), asOf: AsOf }).openapi("AgentFeed"),
        },
      },
    },
    ...errorResponses(400, 503),
  },
});

const bondsRoute = createRoute({
  method: "get",
  path: "/api/agents/bonds",
  operationId: "listBonds",
  security: [],
  tags: ["Agents"],
  summary: "Active bonds",
  description: `Bonds with shares left, newest first, valued at the indexed block. \`limit\` is at most ${MAX_BONDS_LIMIT}.`,
  request: {
    query: z.object({
      agentId: AgentIdSchema.optional(),
      limit: z.coerce.number().int().min(1).max(MAX_BONDS_LIMIT).default(50),
      offset: z.coerce.number().int().min(0).default(0),
    }),
  },
  responses: {
    200: {
      description: "a page of bonds",
      content: {
        "application/json": {
          schema: z
            .object({ bonds: z.array(Bond), total: z.number(), limit: z.number(), offset: z.number(), asOf: AsOf })
            .openapi("BondList"),
        },
      },
    },
    ...errorResponses(400, 503),
  },
});

const detailRoute = createRoute({
  method: "get",
  path: "/api/agents/{id}",
  operationId: "getAgent",
  security: [],
  tags: ["Agents"],
  summary: "Agent detail: vault, net asset value, open positions, fee, lockup",
  request: { params: z.object({ id: AgentIdSchema.openapi({ param: { name: "id", in: "path" } }) }) },
  responses: {
    200: {
      description: "the agent",
      content: { "application/json": { schema: AgentDetail.extend({ asOf: AsOf }).openapi("AgentDetailAsOf") } },
    },
    ...errorResponses(400, 404, 503),
  },
});

export const agentRoutes = new OpenAPIHono<AppEnv>()
  .openapi(rosterRoute, async (c) => {
    const { status, limit, offset } = c.req.valid("query");
    const page = await c.var.db.agents.list({
      active: status === undefined ? undefined : status === "active",
      limit,
      offset,
    });
    return c.json({ agents: page.agents.map(agentView), total: page.total, limit, offset, asOf: page.asOf }, 200);
  })
  .openapi(houseRoute, async (c) => {
    const page = await c.var.db.agents.list({ house: true, limit: Number.MAX_SAFE_INTEGER, offset: 0 });
    return c.json({ agents: page.agents.map(houseAgentView), asOf: page.asOf }, 200);
  })
  .openapi(feedRoute, async (c) => {
    const { agentId, marketSlug, limit } = c.req.valid("query");
    const page = await c.var.db.agents.feed({ agent: agentId?.toLowerCase(), slug: marketSlug, limit });
    return c.json({ feed: page.entries.map(feedEntryView), total: page.total, asOf: page.asOf }, 200);
  })
  .openapi(bondsRoute, async (c) => {
    const { agentId, limit, offset } = c.req.valid("query");
    const page = await c.var.db.agents.bonds({ agent: agentId?.toLowerCase(), limit, offset });
    const bonds = await bondEntries(c.var.chain, page.bonds, page.asOf);
    return c.json({ bonds, total: page.total, limit, offset, asOf: page.asOf }, 200);
  })
  .openapi(detailRoute, async (c) => {
    const { agent, asOf } = await c.var.db.agents.find(c.req.valid("param").id.toLowerCase());
    if (!agent) throw agentNotFound();
    return c.json({ ...agentDetailView(agent), asOf }, 200);
  });
