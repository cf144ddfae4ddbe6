import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { type Address, getAddress, isAddress } from "viem";
import { PAYMENT_CHAIN_ID, TEST_NETWORK_CHAIN_ID, toUsdcUnits } from "../../constants";
import { mintPaymentUsdc } from "../chain/paymentChain";
import type { AppEnv } from "../http/env";
import { ApiError, errorResponses, validationError } from "../http/errors";
import { limitWritesPerAddress, writeLimitNote } from "../http/writeLimits";
import { RESEARCH_DESCRIPTION, RESEARCH_PATH } from "../http/x402";
import { research } from "../research/research";
import { ResearchFailedError } from "../research/types";
import { Text } from "./schemas";

export const ResearchQuery = z.object({
  q: Text(500)
    .refine((q) => q.trim().length >= 3, "must be 3 to 500 characters")
    .openapi({ description: "the question, 3 to 500 characters", example: "Will ETH close above 5000 in June?" }),
  depth: z
    .enum(["quick", "standard"])
    .default("standard")
    .openapi({ description: "quick: fewer sources and findings; standard: more" }),
});

const ResearchSource = z
  .object({
    title: z.string(),
    url: z.string().openapi({ description: "absolute for the web, a path of this API for its own corpus" }),
    source: z.string().openapi({ description: "the provider that found it", example: "corpus" }),
    snippet: z.string(),
  })
  .openapi("ResearchSource");

export const ResearchBrief = z
  .object({
    question: z.string(),
    depth: z.enum(["quick", "standard"]),
    summary: z.string(),
    findings: z
      .array(z.object({ text: z.string(), sources: z.array(ResearchSource).min(1) }))
      .openapi({ description: "key findings, each citing the sources that support it" }),
    partial: z.boolean().openapi({ description: "true when a provider had not finished by the deadline" }),
    unfinished: z.array(z.string()).openapi({ description: "the providers that had not finished" }),
    providers: z.array(z.string()).openapi({ description: "every provider asked" }),
  })
  .openapi("ResearchBrief");

const PAYMENT_REQUIRED_HEADER = {
  "PAYMENT-REQUIRED": {
    description:
      "base64 JSON of the x402 v2 payment requirements: x402Version 2, accepts[0] {scheme exact, network eip155:5042002, amount 10000, asset, payTo, maxTimeoutSeconds, extra {name, version}}",
    schema: { type: "string" as const },
  },
};

const researchRoute = createRoute({
  method: "get",
  path: RESEARCH_PATH,
  operationId: "researchQuestion",
  tags: ["Paid research"],
  summary: "Research brief on a question, paid with x402 (0.01 USDC on eip155:5042002)",
  description: `${RESEARCH_DESCRIPTION} Without payment the answer is 402 with the requirements in PAYMENT-REQUIRED; retry with PAYMENT-SIGNATURE (an x402 v2 client does this). The payment is settled only after a successful research, and the PAYMENT-RESPONSE header carries the settlement. A retry with the same payment gets the same result without paying again. The answer comes by the internal deadline (55 s) at the latest, with partial: true when a provider had not finished.`,
  security: [],
  request: {
    query: ResearchQuery,
    headers: z.object({
      "payment-signature": z
        .string()
        .optional()
        .openapi({ description: "base64 JSON of the x402 v2 payment payload (EIP-3009 authorization)" }),
    }),
  },
  middleware: [
    // The question is checked before any payment is asked for or taken.
    (async (c, next) => {
      const parsed = ResearchQuery.safeParse(c.req.query());
      if (!parsed.success) throw validationError(parsed.error.issues);
      const gate = c.var.paidResearch?.gate;
      if (!gate) throw new ApiError(404, "research_unavailable", "this service is not configured to sell research");
      return gate(c, next);
    }) as MiddlewareHandler<AppEnv>,
  ] as const,
  responses: {
    200: {
      description: "the brief; PAYMENT-RESPONSE (base64 JSON) carries the settlement on eip155:5042002",
      headers: {
        "PAYMENT-RESPONSE": {
          description: "base64 JSON of the x402 settlement: success, transaction, network, payer",
          schema: { type: "string" },
        },
      },
      content: { "application/json": { schema: ResearchBrief } },
    },
    402: {
      description: "payment required, or the payment sent was refused (`details.reason`); nothing was settled",
      headers: PAYMENT_REQUIRED_HEADER,
      content: { "application/json": { schema: errorResponses(402)[402]!.content["application/json"].schema } },
    },
    ...errorResponses(400, 404, 409, 503),
  },
});

const FaucetBody = z
  .strictObject({
    address: z
      .string()
      .refine((address) => isAddress(address, { strict: false }), "must be a 0x address")
      .openapi({ example: "0x70997970C51812dc3A010C7d01b50e20d4dc79C8" }),
  })
  .openapi("PaymentFaucetRequest");

const FaucetGrant = z
  .object({ address: z.string(), amount: z.string(), network: z.string(), asset: z.string(), txHash: z.string() })
  .openapi("PaymentFaucetGrant");

const faucetRoute = createRoute({
  method: "post",
  path: "/api/x402/faucet",
  operationId: "requestPaymentFaucetGrant",
  tags: ["Paid research"],
  summary: "Test-network faucet: mints test USDC on eip155:5042002 to an address, to pay for research",
  description: `Only on the local test network. One grant per address per FAUCET_INTERVAL_SECONDS; a later call is a 429 with Retry-After. ${writeLimitNote("WRITE_LIMIT_FAUCET", "100 an hour", "faucet requests", "client address")}`,
  security: [],
  middleware: [
    limitWritesPerAddress({ name: "payment-faucet", limit: (config) => config.WRITE_LIMIT_FAUCET }),
  ] as const,
  request: { body: { required: true, content: { "application/json": { schema: FaucetBody } } } },
  responses: {
    200: { description: "minted and mined", content: { "application/json": { schema: FaucetGrant } } },
    ...errorResponses(400, 404, 413, 415, 429, 503),
  },
});

export const researchRoutes = new OpenAPIHono<AppEnv>()
  .openapi(researchRoute, async (c) => {
    const { q, depth } = c.req.valid("query");
    const paid = c.var.paidResearch!;
    try {
      const result = await research(paid.providers, q.trim(), {
        depth,
        deadlineMs: c.var.config.RESEARCH_DEADLINE_MS,
        onProviderError: (name, error) => c.var.log.warn({ err: error, provider: name }, "research provider failed"),
      });
      return c.json(result, 200);
    } catch (error) {
      if (error instanceof ResearchFailedError)
        throw new ApiError(503, "research_failed", "every research provider failed; nothing was charged", undefined, {
          cause: error,
        });
      throw error;
    }
  })
  .openapi(faucetRoute, async (c) => {
    const { config } = c.var;
    const access = c.var.paidResearch?.paymentChain;
    if (config.CHAIN_ID !== TEST_NETWORK_CHAIN_ID || !config.FAUCET_ENABLED || !access?.minter)
      throw new ApiError(404, "faucet_unavailable", "the faucet only runs on the test network");
    const address = getAddress(c.req.valid("json").address) as Address;
    const units = toUsdcUnits(config.FAUCET_AMOUNT_USDC);
    const outcome = await c.var.db.payments.withFaucetAllowance(address, config.FAUCET_INTERVAL_SECONDS, () =>
      mintPaymentUsdc(access, address, units),
    );
    if (!outcome.allowed) {
      c.header("Retry-After", String(outcome.retryAfterSeconds));
      throw new ApiError(
        429,
        "rate_limited",
        `the faucet grants once per ${config.FAUCET_INTERVAL_SECONDS} s per address; retry in ${outcome.retryAfterSeconds} s`,
      );
    }
    return c.json(
      {
        address,
        amount: String(config.FAUCET_AMOUNT_USDC),
        network: `eip155:${PAYMENT_CHAIN_ID}`,
        asset: access.usdc,
        txHash: outcome.result,
      },
      200,
    );
  });
