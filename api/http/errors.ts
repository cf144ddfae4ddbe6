// The JSON error envelope of every non-2xx answer, {"error":{"code","message","details"}}, and the
// catalogue of its codes: a code used anywhere in the API is one of ERROR_CATALOGUE's keys (the
// type checker enforces it), with its status and a one-line meaning that the OpenAPI document
// publishes.

import { z } from "@hono/zod-openapi";
import type { Context } from "hono";

export const ERROR_CATALOGUE = {
  invalid_parameter: { status: 400, meaning: "a path, query, header or body field is invalid; `details.parameter`" },
  invalid_body: { status: 400, meaning: "the body is not valid JSON" },
  malformed_request: { status: 400, meaning: "the request is not valid HTTP/1.1; the connection is closed" },
  market_not_resolved: { status: 400, meaning: "the market has no result yet, so there is nothing to claim" },
  payment_required: {
    status: 402,
    meaning:
      "pay with x402: the PAYMENT-REQUIRED header holds the requirements; `details.reason` says why a payment sent was refused",
  },
  unauthorized: { status: 401, meaning: "the bearer token is missing, malformed, expired or not ours" },
  forbidden: { status: 403, meaning: "the token is valid but lacks the role this operation needs" },
  not_author: { status: 403, meaning: "only the author of this post may change it" },
  not_agent_manager: { status: 403, meaning: "only the agent itself (its account) may change this agent" },
  not_staker: { status: 403, meaning: "only the staker of this bond may unbond it" },
  journal_closed: {
    status: 403,
    meaning: "posting is switched off on this service; GET /api/blog/config says live: false",
  },
  not_found: { status: 404, meaning: "the market or transaction named does not exist (for this user)" },
  route_not_found: { status: 404, meaning: "no operation at this method and path" },
  wallet_not_found: { status: 404, meaning: "the user has no wallet yet; POST /api/wallet/get-or-create first" },
  no_position: { status: 404, meaning: "the user holds no winning tokens of this market" },
  agent_not_found: { status: 404, meaning: "no agent is registered on chain under this id" },
  bond_not_found: { status: 404, meaning: "no bond with this id is indexed" },
  faucet_unavailable: { status: 404, meaning: "the faucet runs only on the test network" },
  research_unavailable: {
    status: 404,
    meaning: "this service sells no research: its payment network or receiving address is not configured",
  },
  not_acceptable: { status: 406, meaning: "the Accept header excludes the only media type offered" },
  slug_taken: { status: 409, meaning: "a market with this slug exists" },
  already_active: { status: 409, meaning: "the market is already activated" },
  activation_refused: { status: 409, meaning: "the factory refused to deploy the market" },
  already_settled: { status: 409, meaning: "the market is already resolved or voided" },
  settlement_refused: { status: 409, meaning: "the market contract refused to resolve or void" },
  market_not_active: { status: 409, meaning: "the market does not accept trades in its current status" },
  agent_exists: { status: 409, meaning: "the caller's account is already registered as an agent" },
  agent_not_registered: {
    status: 409,
    meaning: "the caller has no registered vault to trade from; POST /api/agents first, or trade from the wallet",
  },
  agent_inactive: { status: 409, meaning: "the agent is inactive and accepts no new bonds" },
  bond_locked: { status: 409, meaning: "the bond is still in its lockup; `details.lockupUntil` says until when" },
  bond_closed: { status: 409, meaning: "the bond has no shares left: it was fully unbonded" },
  too_many_positions: {
    status: 409,
    meaning: "the vault holds positions in as many markets as it may; sell or claim one first",
  },
  rejected: { status: 409, meaning: "the bundler or the chain refused the user operation; nothing was spent" },
  stance_not_held: {
    status: 409,
    meaning: "a duel's stance names an outcome the author holds no tokens of, as indexed from the chain",
  },
  agent_not_house: {
    status: 409,
    meaning: "the house user's account is registered as an agent of its own, not as a house agent",
  },
  operator_underfunded: { status: 409, meaning: "the operator holds less USDC than a house agent's seed" },
  house_agent_refused: {
    status: 409,
    meaning: "the registry or the vault refused the operator's transaction; `details.reason` names the error",
  },
  payment_in_progress: {
    status: 409,
    meaning: "a request with this payment is still running; retry it for the result, which it buys once",
  },
  idempotency_key_in_progress: { status: 409, meaning: "a request with this Idempotency-Key is still running" },
  request_timeout: { status: 408, meaning: "the request's headers did not arrive in time; the connection is closed" },
  payload_too_large: { status: 413, meaning: "the body is larger than the API accepts" },
  unsupported_media_type: { status: 415, meaning: "the body is not sent as application/json" },
  idempotency_key_reused: { status: 422, meaning: "this Idempotency-Key was used with a different request" },
  rate_limited: { status: 429, meaning: "too many requests of this kind; see Retry-After" },
  headers_too_large: { status: 431, meaning: "the request's headers are larger than the server takes (16 KiB)" },
  internal_error: { status: 500, meaning: "a bug: the request failed in an unexpected way" },
  wallet_provisioning_failed: { status: 500, meaning: "the wallet address could not be computed; try again" },
  chain_unavailable: {
    status: 503,
    meaning: "this API instance has no chain access, or the chain node does not answer",
  },
  bundler_unavailable: { status: 503, meaning: "the bundler or paymaster is unreachable or not configured" },
  write_interrupted: {
    status: 503,
    meaning:
      "the write was stopped before it was sent: this API process had been taken for gone (its heartbeat lapsed, as when the database was away); nothing was sent, try again",
  },
  research_failed: { status: 503, meaning: "every research provider failed; the payment was not settled" },
  facilitator_unavailable: {
    status: 503,
    meaning: "the x402 facilitator did not answer; the payment was not settled",
  },
  database_unavailable: { status: 503, meaning: "the database is unreachable or restarting; try again" },
  rate_limits_unavailable: { status: 503, meaning: "the rate-limit counters (Redis) do not answer; try again" },
  stream_unavailable: { status: 503, meaning: "this process does not serve the live stream" },
  too_many_clients: { status: 503, meaning: "this process holds as many stream clients as it may" },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
type StatusOf<Code extends ErrorCode> = (typeof ERROR_CATALOGUE)[Code]["status"];
export type ErrorStatus = StatusOf<ErrorCode>;

/** An answer other than 2xx: a status and code from the catalogue; `cause` keeps the error under it for the logs. */
export class ApiError<Code extends ErrorCode = ErrorCode> extends Error {
  constructor(
    readonly status: StatusOf<Code>,
    readonly code: Code,
    message: string,
    readonly details?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ApiError";
  }
}

export const badRequest = (parameter: string, message: string, cause?: unknown) =>
  new ApiError(400, "invalid_parameter", `${parameter}: ${message}`, { parameter }, { cause });
export const invalidBody = (cause?: unknown) =>
  new ApiError(
    400,
    "invalid_body",
    `the body is not valid JSON${cause instanceof SyntaxError ? `: ${cause.message}` : ""}`,
    undefined,
    { cause },
  );
export const payloadTooLarge = (maxBytes?: number, cause?: unknown) =>
  new ApiError(
    413,
    "payload_too_large",
    maxBytes ? `the body is larger than ${maxBytes} bytes` : "the body is too large",
    maxBytes ? { maxBytes } : undefined,
    { cause },
  );
export const unsupportedMediaType = (mediaType?: string, cause?: unknown) =>
  new ApiError(
    415,
    "unsupported_media_type",
    `send the body as application/json${mediaType ? `, not ${mediaType}` : ""}`,
    undefined,
    { cause },
  );
export const notFound = (what: string) => new ApiError(404, "not_found", `${what} not found`);
export const marketNotFound = () => notFound("market");
export const marketAlreadyActive = () => new ApiError(409, "already_active", "the market is already activated");
export const walletNotFound = () =>
  new ApiError(404, "wallet_not_found", "no wallet for this user; call POST /api/wallet/get-or-create first");
export const agentNotFound = () => new ApiError(404, "agent_not_found", "no agent is registered under this id");
export const chainUnavailable = (message = "this API instance cannot send transactions", cause?: unknown) =>
  new ApiError(503, "chain_unavailable", message, undefined, { cause });
export const bundlerUnavailable = (
  message = "the bundler is unavailable; nothing was sent, try again",
  cause?: unknown,
) => new ApiError(503, "bundler_unavailable", message, undefined, { cause });
export const writeInterrupted = (cause?: unknown) =>
  new ApiError(
    503,
    "write_interrupted",
    "the write was stopped before it was sent; nothing was sent, try again",
    undefined,
    {
      cause,
    },
  );
export const databaseUnavailable = (cause?: unknown) =>
  new ApiError(503, "database_unavailable", "the database is unavailable; try again shortly", undefined, { cause });
export const internalError = (cause?: unknown) =>
  new ApiError(500, "internal_error", "internal error", undefined, { cause });

const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]];

export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES).openapi({
        description: ERROR_CODES.map((code) => {
          const { status, meaning } = ERROR_CATALOGUE[code];
          return `- \`${code}\` (${status}): ${meaning}`;
        }).join("\n"),
        example: "invalid_parameter",
      }),
      message: z.string().openapi({ example: "limit: Too big: expected number to be <=100" }),
      details: z.unknown().optional(),
    }),
  })
  .openapi("Error");

/** The error responses a route documents, by status. */
export const errorResponses = (...statuses: (keyof typeof ERROR_DESCRIPTIONS)[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      status,
      { description: ERROR_DESCRIPTIONS[status], content: { "application/json": { schema: ErrorEnvelope } } },
    ]),
  );

const ERROR_DESCRIPTIONS = {
  400: "invalid parameter (`details.parameter` names it) or a body that is not JSON",
  401: "missing or invalid token",
  402: "payment required",
  403: "not allowed for this user",
  404: "not found",
  406: "the client does not accept the only media type offered",
  409: "conflict with the resource's state",
  413: "the body is too large",
  415: "the body is not application/json",
  422: "the Idempotency-Key was used with a different request",
  429: "rate limited",
  500: "internal error",
  503: "a dependency is unavailable",
};

export function errorResponse(c: Context, error: ApiError) {
  return c.json({ error: { code: error.code, message: error.message, details: error.details } }, error.status);
}

/** A failed zod validation as a 400 naming the first offending parameter. */
export function validationError(issues: z.core.$ZodIssue[]): ApiError {
  // An unknown field is named itself: a misspelt `maxprice` must not pass as an absent `maxPrice`.
  const named = (issue: z.core.$ZodIssue) =>
    [...issue.path, ...(issue.code === "unrecognized_keys" ? [issue.keys[0]!] : [])].join(".") || "body";
  const first = issues[0]!;
  const parameter = named(first);
  const message = first.code === "unrecognized_keys" ? "not a field of this request" : first.message;
  return new ApiError(400, "invalid_parameter", `${parameter}: ${message}`, {
    parameter,
    issues: issues.map((issue) => ({ parameter: named(issue), message: issue.message })),
  });
}
