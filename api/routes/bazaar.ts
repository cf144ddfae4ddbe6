import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../http/env";
import { RESEARCH_DESCRIPTION, RESEARCH_PATH, researchPaymentOption } from "../http/x402";
import { ResearchBrief, ResearchQuery } from "./research";

/** When this process began to offer what it lists: its requirements do not change while it runs. */
const LAST_UPDATED = new Date().toISOString();

const PaymentRequirements = z
  .object({
    scheme: z.string().openapi({ example: "exact" }),
    network: z.string().openapi({ example: "eip155:5042002" }),
    amount: z.string().openapi({ description: "in the asset's smallest units", example: "10000" }),
    asset: z.string(),
    payTo: z.string(),
    maxTimeoutSeconds: z.number(),
    extra: z.object({ name: z.string(), version: z.string() }).openapi({ description: "the asset's EIP-712 domain" }),
  })
  .openapi("PaymentRequirements");

const DiscoveryResource = z
  .object({
    resource: z.string().openapi({ description: "absolute URL of the paid endpoint" }),
    type: z.literal("http"),
    x402Version: z.literal(2),
    accepts: z.array(PaymentRequirements),
    lastUpdated: z.string().openapi({ format: "date-time" }),
    description: z.string(),
    mimeType: z.string(),
    serviceName: z.string(),
    extensions: z.object({
      bazaar: z.object({
        info: z.object({
          input: z.object({
            type: z.literal("http"),
            method: z.literal("GET"),
            queryParams: z.record(z.string(), z.string()),
          }),
          output: z.object({ type: z.literal("json") }),
        }),
        schema: z
          .object({ input: z.record(z.string(), z.unknown()), output: z.record(z.string(), z.unknown()) })
          .openapi({ description: "JSON Schemas of the query parameters and of the answer" }),
      }),
    }),
  })
  .openapi("DiscoveryResource");

const bazaarRoute = createRoute({
  method: "get",
  path: "/api/bazaar",
  operationId: "listPaidResources",
  security: [],
  tags: ["Discovery"],
  summary: "Every paid endpoint, in the x402 discovery (bazaar) shape",
  responses: {
    200: {
      description: "the paid endpoints",
      content: {
        "application/json": {
          schema: z
            .object({
              x402Version: z.literal(2),
              items: z.array(DiscoveryResource),
              pagination: z.object({ limit: z.number(), offset: z.number(), total: z.number() }),
            })
            .openapi("DiscoveryResources"),
        },
      },
    },
  },
});

const schemas = {
  input: z.toJSONSchema(ResearchQuery, { io: "input", unrepresentable: "any" }) as Record<string, unknown>,
  output: z.toJSONSchema(ResearchBrief, { unrepresentable: "any" }) as Record<string, unknown>,
};

/** The research endpoint as a discovery resource: the requirements its 402 carries, and its schemas. */
function researchResource(payTo: string, requestUrl: string) {
  const option = researchPaymentOption(payTo);
  return {
    resource: new URL(RESEARCH_PATH, requestUrl).href,
    type: "http" as const,
    x402Version: 2 as const,
    accepts: [
      {
        scheme: option.scheme,
        network: option.network,
        amount: option.price.amount,
        asset: option.price.asset,
        payTo: option.payTo,
        maxTimeoutSeconds: option.maxTimeoutSeconds,
        extra: option.price.extra,
      },
    ],
    lastUpdated: LAST_UPDATED,
    description: RESEARCH_DESCRIPTION,
    mimeType: "application/json",
    serviceName: "Prediction market research",
    extensions: {
      bazaar: {
        info: {
          input: {
            type: "http" as const,
            method: "GET" as const,
            queryParams: { q: "Will ETH close above 5000 in June?", depth: "standard" },
          },
          output: { type: "json" as const },
        },
        schema: schemas,
      },
    },
  };
}

export const bazaarRoutes = new OpenAPIHono<AppEnv>().openapi(bazaarRoute, (c) => {
  // Listed only when this instance takes payments.
  const payTo = c.var.paidResearch?.gate ? c.var.config.PAYMENT_PAY_TO : undefined;
  const items = payTo ? [researchResource(payTo, c.req.url)] : [];
  return c.json(
    { x402Version: 2 as const, items, pagination: { limit: items.length, offset: 0, total: items.length } },
    200,
  );
});
