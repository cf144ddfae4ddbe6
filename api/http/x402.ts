// x402 v2 payments for paid routes: @x402/hono verifies the payment, lets the handler run, then
// settles, and settles nothing when the handler answers 400 or more. Around it, this module makes
// one payment buy one result (api.payment: a retry with the same payment gets the stored answer, a
// concurrent one is refused while the first runs) and puts every refusal in the API's error envelope,
// the PAYMENT-REQUIRED and PAYMENT-RESPONSE headers kept.
import { createHash } from "node:crypto";
import { x402Facilitator } from "@x402/core/facilitator";
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  decodePaymentSignatureHeader,
  HTTPFacilitatorClient,
} from "@x402/core/http";
import type { FacilitatorClient, RouteConfig } from "@x402/core/server";
import type { PaymentPayload, SupportedResponse } from "@x402/core/types";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/facilitator";
import { ExactEvmScheme } from "@x402/evm/exact/server";
import {
  declarePaymentIdentifierExtension,
  extractPaymentIdentifier,
  PAYMENT_IDENTIFIER,
  paymentIdentifierResourceServerExtension,
} from "@x402/extensions/payment-identifier";
import { paymentMiddlewareFromHTTPServer, x402HTTPResourceServer, x402ResourceServer } from "@x402/hono";
import type { MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import { PAYMENT_NETWORK, PAYMENT_USDC_ADDRESS, PAYMENT_USDC_DOMAIN, RESEARCH_PRICE_UNITS } from "../../constants";
import type { PaymentChainAccess } from "../chain/paymentChain";
import type { Config } from "../config";
import type { paymentQueries } from "../db/payments";
import type { AppEnv } from "./env";
import { ApiError, ErrorEnvelope, errorResponse, internalError } from "./errors";

export const RESEARCH_PATH = "/api/x402/research";
/** Long enough to settle after a research that runs to its 55 s deadline. */
export const PAYMENT_TIMEOUT_SECONDS = 120;

/** What one research costs and where it is paid: the route's x402 payment option. */
export function researchPaymentOption(payTo: string) {
  return {
    scheme: "exact",
    network: PAYMENT_NETWORK,
    payTo,
    price: { amount: RESEARCH_PRICE_UNITS.toString(), asset: PAYMENT_USDC_ADDRESS, extra: { ...PAYMENT_USDC_DOMAIN } },
    maxTimeoutSeconds: PAYMENT_TIMEOUT_SECONDS,
  } as const;
}

export const RESEARCH_DESCRIPTION =
  "Research on a question over the prediction market's own corpus (markets, prices, trades, journal, agent reasoning) and any configured web search: a summary and key findings, each citing its sources.";

function researchRouteConfig(payTo: string): RouteConfig {
  return {
    accepts: researchPaymentOption(payTo),
    description: RESEARCH_DESCRIPTION,
    mimeType: "application/json",
    serviceName: "Prediction market research",
    extensions: { [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false) },
  };
}

/** The in-process facilitator (verify and settle with our own key), or FACILITATOR_URL's. */
function facilitatorClient(config: Config, access: PaymentChainAccess | undefined): FacilitatorClient | undefined {
  if (config.FACILITATOR_URL) return new HTTPFacilitatorClient({ url: config.FACILITATOR_URL });
  const wallet = access?.facilitator;
  if (!wallet) return undefined;
  const facilitator = registerExactEvmScheme(new x402Facilitator(), {
    signer: toFacilitatorEvmSigner({
      address: wallet.account.address,
      readContract: (args) => wallet.readContract(args as never),
      verifyTypedData: (args) => wallet.verifyTypedData(args as never),
      writeContract: (args) => wallet.writeContract(args as never),
      sendTransaction: (args) => wallet.sendTransaction(args),
      waitForTransactionReceipt: (args) => wallet.waitForTransactionReceipt(args),
      getCode: (args) => wallet.getCode(args),
    }),
    networks: PAYMENT_NETWORK,
  });
  return {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    // The facilitator registered only eip155 networks: its kinds name CAIP-2 networks.
    getSupported: async () => facilitator.getSupported() as SupportedResponse,
  };
}

type PaymentIdentity = { key: string; payer: string; nonce: string; amount: string; network: string };

/**
 * Which payment a request carries, for one request (question and depth): its payment-identifier
 * when sent (scoped to the payer), otherwise its EIP-3009 signature; undefined when the header is
 * not a payment at all.
 */
export function paymentIdentity(header: string, request: string): PaymentIdentity | undefined {
  let payload: PaymentPayload;
  try {
    payload = decodePaymentSignatureHeader(header);
  } catch {
    return undefined;
  }
  const inner = payload?.payload as { authorization?: Record<string, unknown>; signature?: unknown } | undefined;
  const authorization = inner?.authorization;
  const { from, nonce, value } = authorization ?? {};
  if (typeof from !== "string" || typeof nonce !== "string" || typeof inner?.signature !== "string") return undefined;
  let paymentId: string | null = null;
  try {
    paymentId = extractPaymentIdentifier(payload, true);
  } catch {}
  const payment = paymentId ? `id:${from.toLowerCase()}:${paymentId}` : `signature:${inner.signature.toLowerCase()}`;
  return {
    key: createHash("sha256")
      .update(JSON.stringify([request, payment]))
      .digest("hex"),
    payer: from,
    nonce,
    amount: /^\d{1,78}$/.test(String(value)) ? String(value) : "0",
    network: String(payload.accepted?.network ?? ""),
  };
}

/** Why x402 refused, from its headers: the verify reason in PAYMENT-REQUIRED or the settlement's. */
function refusalReason(response: Response): string | undefined {
  try {
    const settlement = response.headers.get("PAYMENT-RESPONSE");
    if (settlement) return decodePaymentResponseHeader(settlement).errorReason ?? "settlement failed";
    const required = response.headers.get("PAYMENT-REQUIRED");
    if (required) return decodePaymentRequiredHeader(required).error;
  } catch {}
  return undefined;
}

/** x402's own answers (an empty 402, a bare 500 or 502) as the API's error envelope, headers kept. */
async function inEnvelope(response: Response): Promise<Response> {
  if (response.status < 400) return response;
  const body = await response
    .clone()
    .json()
    .catch(() => undefined);
  if (ErrorEnvelope.safeParse(body).success) return response;
  const reason = refusalReason(response);
  const error =
    response.status === 402
      ? new ApiError(
          402,
          "payment_required",
          reason
            ? `payment refused: ${reason}`
            : "this resource costs 0.01 USDC: pay with x402 (PAYMENT-REQUIRED header)",
          reason ? { reason } : undefined,
        )
      : response.status === 502
        ? new ApiError(503, "facilitator_unavailable", "the x402 facilitator did not answer; nothing was settled")
        : internalError();
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.set("content-type", "application/json");
  const envelope = {
    error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
  };
  return new Response(JSON.stringify(envelope), { status: error.status, headers });
}

export type PaymentGate = MiddlewareHandler<AppEnv>;

/**
 * The payment gate of GET /api/x402/research, or undefined when this instance cannot take payments
 * (no receiving address, or neither FACILITATOR_URL nor the payment network and a facilitator key).
 */
export function createResearchPaymentGate(options: {
  config: Config;
  access?: PaymentChainAccess;
  payments: ReturnType<typeof paymentQueries>;
  logger: Logger;
}): PaymentGate | undefined {
  const { config, payments, logger } = options;
  const facilitator = facilitatorClient(config, options.access);
  if (!config.PAYMENT_PAY_TO || !facilitator) return undefined;
  const server = new x402ResourceServer(facilitator)
    .register(PAYMENT_NETWORK, new ExactEvmScheme())
    .registerExtension(paymentIdentifierResourceServerExtension);
  const httpServer = new x402HTTPResourceServer(server, {
    [`GET ${RESEARCH_PATH}`]: researchRouteConfig(config.PAYMENT_PAY_TO),
  });
  // Initialised here on the first request rather than by the middleware at start-up: a facilitator
  // that is down then fails those requests with a 503 instead of writing to the console (or, when it
  // does not support the network, exiting the process).
  const x402 = paymentMiddlewareFromHTTPServer(httpServer, undefined, undefined, false);
  let initialized: Promise<void> | undefined;
  const initialize = () =>
    (initialized ??= httpServer.initialize().catch((error: unknown) => {
      initialized = undefined;
      throw new ApiError(
        503,
        "facilitator_unavailable",
        "the x402 facilitator did not answer; nothing was settled",
        undefined,
        {
          cause: error,
        },
      );
    }));

  return async (c, next) => {
    await initialize();
    const header = c.req.header("payment-signature") ?? c.req.header("x-payment");
    // The route has checked both already; a payment buys the answer to this question at this depth.
    const question = c.req.query("q") ?? "";
    const depth = c.req.query("depth") ?? "standard";
    const identity = header ? paymentIdentity(header, JSON.stringify([question, depth])) : undefined;
    if (identity) {
      const claim = await payments.claim({ ...identity, question, depth });
      if (claim.kind === "delivered") {
        c.header("PAYMENT-RESPONSE", claim.paymentResponse);
        c.header("Cache-Control", "private, no-store");
        return c.json(claim.response as Record<string, unknown>, 200);
      }
      if (claim.kind === "in_progress") {
        c.header("Retry-After", "1");
        return errorResponse(
          c,
          new ApiError(409, "payment_in_progress", "a request with this payment is running; retry for its result"),
        );
      }
    }
    let researched = false;
    try {
      // A refusal is returned rather than set on the context.
      const refusal = await x402(c, async () => {
        researched = true;
        await next();
      });
      if (refusal) c.res = refusal;
    } catch (error) {
      if (identity) await payments.failed(identity.key, "research_failed");
      throw error;
    }
    c.res = await inEnvelope(c.res);
    if (!identity) return;
    const settlement = c.res.headers.get("PAYMENT-RESPONSE");
    try {
      if (c.res.status === 200 && settlement) {
        const { transaction } = decodePaymentResponseHeader(settlement);
        await payments.settled(identity.key, transaction, settlement, await c.res.clone().json());
      } else if (!researched) await payments.release(identity.key);
      else await payments.failed(identity.key, c.res.status === 402 ? "settlement_failed" : "research_failed");
    } catch (error) {
      // The answer stands (a settled payment is delivered); only its record is missing.
      logger.error({ err: error, key: identity.key }, "payment not recorded");
    }
  };
}
