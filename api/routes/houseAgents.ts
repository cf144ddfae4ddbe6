import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { ensureHouseAgent } from "../agents/house";
import { BEARER_AUTH, requireAdmin, requireUser } from "../http/auth";
import type { AppEnv } from "../http/env";
import { errorResponses } from "../http/errors";
import { honourIdempotencyKey } from "../http/idempotency";
import { ADMIN_WRITE_LIMIT_NOTE, limitAdminWrites } from "../http/writeLimits";
import { sixDecimals, Utf8Text } from "./agentWrites";
import { Text } from "./schemas";

const HouseAgentBody = z
  .strictObject({
    userId: Text(200).openapi({
      description: "the house user whose smart account becomes the agent: the `sub` of the tokens its program uses",
      example: "house-market-maker",
    }),
    name: Utf8Text(1, 100).openapi({ description: "1 to 100 bytes", example: "House Market Maker" }),
    persona: Utf8Text(0, 1000).openapi({ description: "at most 1,000 bytes" }),
    strategy: Utf8Text(0, 1000).openapi({ description: "at most 1,000 bytes", example: "market-maker" }),
    seedUsdc: z
      .number()
      .min(0)
      .max(1_000_000)
      .refine(sixDecimals, { message: "must have at most 6 decimal places" })
      .default(1000)
      .openapi({ description: "USDC the operator bonds into the vault while it has no bond; 0 for none" }),
  })
  .openapi("NewHouseAgent");

const HouseAgentRegistration = z
  .object({
    agentId: z.string().openapi({ description: "the agent's id: its smart account's address, lowercase" }),
    userId: z.string(),
    walletAddress: z.string().openapi({ description: "the house user's smart account, the vault's manager" }),
    vaultAddress: z.string(),
    house: z.literal(true),
    registerTxHash: z
      .string()
      .nullable()
      .openapi({ description: "the registration this call sent; null when the agent was registered before" }),
    seedTxHash: z.string().nullable().openapi({
      description:
        "the operator's seed bond this call sent; null when the vault already had a bond or no seed was asked",
    }),
    seededUsdc: z.number().openapi({ description: "USDC this call bonded" }),
  })
  .openapi("HouseAgentRegistration");

const houseRoute = createRoute({
  method: "post",
  path: "/api/agents/house",
  operationId: "ensureHouseAgent",
  tags: ["Agents"],
  summary: "Register a house agent and seed its vault (admin)",
  description: `Ensures the house user's wallet (as POST /api/wallet/get-or-create would), has the operator register its smart account as a house agent (\`house: true\`, no fee, no lockup; the registry deploys its vault) and bond \`seedUsdc\` of the operator's USDC into the vault while the vault has no bond. Transactions are sent by the operator and mined before the answer. Idempotent: an agent already registered answers 200 with its ids (and seeds its vault only if it still has no bond); a new one 201. The house's programs then trade through the public API with tokens of that user (roles \`agent\` and \`verified\`). 409 \`agent_not_house\` when the user's account registered itself as an agent, \`operator_underfunded\` when the operator holds less USDC than the seed, \`house_agent_refused\` when a contract refuses; 503 when this API has no operator key or wallet master key. ${ADMIN_WRITE_LIMIT_NOTE}`,
  security: BEARER_AUTH,
  middleware: [requireUser(), requireAdmin(), limitAdminWrites(), honourIdempotencyKey()] as const,
  request: { body: { required: true, content: { "application/json": { schema: HouseAgentBody } } } },
  responses: {
    200: {
      description: "registered before: its ids",
      content: { "application/json": { schema: HouseAgentRegistration } },
    },
    201: {
      description: "registered by this call",
      content: { "application/json": { schema: HouseAgentRegistration } },
    },
    ...errorResponses(400, 401, 403, 409, 413, 415, 422, 429, 503),
  },
});

export const houseAgentRoutes = new OpenAPIHono<AppEnv>().openapi(houseRoute, async (c) => {
  const { created, agent } = await ensureHouseAgent(c.var, c.req.valid("json"));
  return created ? c.json(agent, 201) : c.json(agent, 200);
});
