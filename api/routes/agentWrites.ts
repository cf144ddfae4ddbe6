import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Address } from "viem";
import { bondAgent } from "../agents/bond";
import { registerAgent } from "../agents/register";
import { setAgentStatus } from "../agents/status";
import { unbondShares } from "../agents/unbond";
import { BEARER_AUTH, requireUser } from "../http/auth";
import type { AppEnv } from "../http/env";
import { errorResponses } from "../http/errors";
import { honourIdempotencyKey } from "../http/idempotency";
import { limitWrites, writeLimitNote } from "../http/writeLimits";

/** The registry's bounds (AgentRegistry.sol): texts in UTF-8 bytes, as the contract counts them. */
const MAX_AGENT_FEE_BPS = 2000;
const MAX_AGENT_LOCKUP_SECONDS = 365 * 24 * 3600;
/** AgentVault.MIN_BOND: the smallest bond, in USDC. */
const MIN_BOND_USDC = 1;

export const Utf8Text = (min: number, maxBytes: number) =>
  z
    .string()
    .min(min)
    .refine((text) => Buffer.byteLength(text, "utf8") <= maxBytes, `must be at most ${maxBytes} bytes of UTF-8`)
    .refine((text) => !text.includes("\0"), "must not contain NUL characters");

export const sixDecimals = (value: number) => /^\d+(\.\d{1,6})?$/.test(String(value));

const RegisterBody = z.strictObject({
  name: Utf8Text(1, 100).openapi({ description: "1 to 100 bytes", example: "Quant" }),
  persona: Utf8Text(0, 1000).openapi({ description: "at most 1,000 bytes", example: "Patient and contrarian" }),
  strategy: Utf8Text(0, 1000).openapi({ description: "at most 1,000 bytes", example: "momentum on macro markets" }),
  feeBps: z
    .number()
    .int()
    .min(0)
    .max(MAX_AGENT_FEE_BPS)
    .default(0)
    .openapi({ description: "performance fee on stakers' profit above their high-water mark, in basis points" }),
  lockupSeconds: z
    .number()
    .int()
    .min(0)
    .max(MAX_AGENT_LOCKUP_SECONDS)
    .default(0)
    .openapi({ description: "seconds after bonding before a bond may be unbonded" }),
});

const AgentIdParam = z.object({
  id: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, "must be an agent id (its account's address)")
    .openapi({ param: { name: "id", in: "path" }, example: "0x1234567890abcdef1234567890abcdef12345678" }),
});
const BondIdParam = z.object({
  bondId: z
    .string()
    .regex(/^[1-9][0-9]{0,76}$/, "must be a bond id (a positive integer)")
    .openapi({ param: { name: "bondId", in: "path" }, example: "1" }),
});

const StatusBody = z.strictObject({
  active: z.boolean().openapi({ description: "true opens the agent to new bonds; false closes it" }),
});
const BondBody = z.strictObject({
  amount: z
    .number()
    .min(MIN_BOND_USDC)
    .max(1_000_000_000)
    .refine(sixDecimals, { message: "must have at most 6 decimal places" })
    .openapi({
      description: `the most USDC to stake (what is not spent is refunded in the same operation), at least ${MIN_BOND_USDC}, at most 6 decimal places`,
      example: 100,
    }),
});
const UnbondBody = z.strictObject({
  shares: z
    .number()
    .positive()
    .refine(sixDecimals, { message: "must have at most 6 decimal places" })
    .optional()
    .openapi({
      description:
        "shares to redeem, as a number with 6 decimals (a vault's first bond gets 1 share per USDC); every share of the bond when absent",
      example: 50,
    }),
});

const Pending = {
  txId: z.string().openapi({ description: "the user operation hash; follow it with GET /api/trade/status/{txId}" }),
  txHash: z
    .string()
    .nullable()
    .openapi({ description: "the bundle transaction; null if the bundler had not sent it within 5 s" }),
  status: z.literal("pending"),
};
const AgentId = z.string().openapi({ description: "the agent's id: its smart account's address, lowercase" });

const Registered = z
  .object({
    ...Pending,
    agentId: AgentId,
    vaultAddress: z.string().openapi({ description: "the agent's vault (a CREATE2 address, known before it exists)" }),
    name: z.string(),
    feeBps: z.number(),
    lockupSeconds: z.number(),
  })
  .openapi("AgentRegistrationSent");
const StatusSent = z.object({ ...Pending, agentId: AgentId, active: z.boolean() }).openapi("AgentStatusSent");
const BondSent = z
  .object({
    ...Pending,
    agentId: AgentId,
    vaultAddress: z.string(),
    amount: z.number().openapi({ description: "USDC staked" }),
  })
  .openapi("BondSent");
const UnbondSent = z
  .object({
    ...Pending,
    bondId: z.string(),
    agentId: AgentId,
    shares: z.number().openapi({ description: "shares redeemed" }),
    quotedUsdc: z.number().openapi({
      description:
        "what the vault would pay for these shares when the unbond was sent (its own quote, after the fee); trades mined before the unbond change it",
    }),
    quotedFee: z.number().openapi({ description: "the performance fee in that quote, paid to the agent" }),
  })
  .openapi("UnbondSent");

const COMMON =
  "One sponsored ERC-4337 user operation from the caller's smart account (deployed by it if it is the account's first); answers `pending`, to follow with GET /api/trade/status/{txId}: confirmation comes only from the indexer. With an `Idempotency-Key` header, a repeat replays the first answer. 404 `wallet_not_found` for a caller without a wallet (POST /api/wallet/get-or-create first); 409 `rejected` when the bundler refuses it; 503 when the chain or the bundler is unavailable.";

/** What every agents write route shares: bearer token, idempotency, pending answers and their errors. */
const write = <Result extends z.ZodType>(description: string, result: Result) => ({
  method: "post" as const,
  tags: ["Agents"],
  description: `${description} ${COMMON} ${writeLimitNote("WRITE_LIMIT_AGENTS", "60 in 10 minutes", "registrations, status changes, bonds and unbonds")}`,
  security: BEARER_AUTH,
  middleware: [
    requireUser(),
    limitWrites({ name: "agents", limit: (config) => config.WRITE_LIMIT_AGENTS }),
    honourIdempotencyKey(),
  ],
  responses: {
    200: {
      description: "accepted by the bundler: status `pending`",
      content: { "application/json": { schema: result } },
    },
    ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
  },
});
const jsonBody = <Body extends z.ZodType>(schema: Body) => ({
  required: true,
  content: { "application/json": { schema } },
});

const registerRoute = createRoute({
  ...write(
    "Registers the caller as an agent: the caller's smart account calls the AgentRegistry, which deploys the agent's vault (at `vaultAddress`, known before). Needs the token role `agent` (403 otherwise); once per account (409 `agent_exists`, checked on chain). The agent's id is its account's address. 400 naming the field for a name empty or over 100 bytes, a persona or strategy over 1,000 bytes, a fee over 2,000 basis points or a lockup over a year.",
    Registered,
  ),
  path: "/api/agents",
  operationId: "registerAgent",
  summary: "Register the caller as a trading agent",
  request: { body: jsonBody(RegisterBody) },
});

const statusRoute = createRoute({
  ...write(
    "Opens (`active: true`) or closes an agent to new bonds; trading and unbonding go on either way. Only the agent itself may (403 `not_agent_manager`); 404 `agent_not_found` for an id that is not a registered agent.",
    StatusSent,
  ),
  path: "/api/agents/{id}/status",
  operationId: "setAgentStatus",
  summary: "Open or close an agent to new bonds",
  request: { params: AgentIdParam, body: jsonBody(StatusBody) },
});

const bondRoute = createRoute({
  ...write(
    "Stakes USDC from the caller's smart account in the agent's vault as one user operation (approve exactly the amount, then bond). The bond buys into the vault as it stands, never at a price mark that a trade could move: it pays its fraction of the vault's cash and of markets that no longer trade (at their final prices), and buys the same fraction of each position in a trading market from that market, so the existing stakers' shares are never diluted; shares are sized so that this costs at most `amount`, and the rest is refunded (the first bond into a vault: 1 share per USDC). The bond's id is known once the operation is mined (the vault's `Bonded` event); GET /api/agents/bonds lists it once indexed. 400 naming `amount` below 1 USDC, finer than 6 decimals, or more than the wallet holds; 404 `agent_not_found`; 409 `agent_inactive` when the agent accepts no new bonds.",
    BondSent,
  ),
  path: "/api/agents/{id}/bonds",
  operationId: "bondAgent",
  summary: "Bond USDC to an agent",
  request: { params: AgentIdParam, body: jsonBody(BondBody) },
});

const unbondRoute = createRoute({
  ...write(
    "Redeems shares of a bond (all of them by default): the vault pays their fraction of its cash plus what selling the same fraction of each open position fetches, less the performance fee on profit above the bond's high-water mark; tokens of markets closed but not settled come in kind. The staker only (403 `not_staker`); 404 `bond_not_found` for a bond not indexed (yet); 409 `bond_locked` during the lockup (`details.lockupUntil`, ISO 8601, by the chain's clock), `bond_closed` for a bond already fully unbonded; 400 naming `shares` beyond the bond's.",
    UnbondSent,
  ),
  path: "/api/agents/bonds/{bondId}/unbond",
  operationId: "unbondBond",
  summary: "Unbond a bond's shares",
  request: { params: BondIdParam, body: jsonBody(UnbondBody) },
});

export const agentWriteRoutes = new OpenAPIHono<AppEnv>()
  .openapi(registerRoute, async (c) => c.json(await registerAgent(c.var, c.req.valid("json")), 200))
  .openapi(statusRoute, async (c) =>
    c.json(await setAgentStatus(c.var, c.req.valid("param").id.toLowerCase() as Address, c.req.valid("json")), 200),
  )
  .openapi(bondRoute, async (c) =>
    c.json(await bondAgent(c.var, c.req.valid("param").id.toLowerCase() as Address, c.req.valid("json")), 200),
  )
  .openapi(unbondRoute, async (c) =>
    c.json(await unbondShares(c.var, BigInt(c.req.valid("param").bondId), c.req.valid("json")), 200),
  );
