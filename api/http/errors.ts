// The JSON error envelope of every non-2xx answer: {"error":{"code","message","details"}}.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { z } from "@hono/zod-openapi";

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export const badRequest = (parameter: string, message: string) =>
  new ApiError(400, "invalid_parameter", `${parameter}: ${message}`, { parameter });
export const notFound = (what: string) => new ApiError(404, "not_found", `${what} not found`);

export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: "invalid_parameter" }),
      message: z.string().openapi({ example: "limit: Too big: expected number to be <=100" }),
      details: z.unknown().optional(),
    }),
  })
  .openapi("Error");

/** The error responses a route documents, by status. */
export const errorResponses = (...statuses: (400 | 401 | 402 | 403 | 404 | 406 | 409 | 422 | 429 | 500 | 503)[]) =>
  Object.fromEntries(
    statuses.map((status) => [status, { description: ERROR_DESCRIPTIONS[status], content: { "application/json": { schema: ErrorEnvelope } } }]),
  );

const ERROR_DESCRIPTIONS = {
  400: "invalid parameter; `details.parameter` names it",
  401: "missing or invalid token",
  402: "payment required",
  403: "not allowed for this user",
  404: "not found",
  406: "the client does not accept the only media type offered",
  409: "conflict with the resource's state",
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
  const first = issues[0]!;
  const parameter = first.path.join(".") || "body";
  return new ApiError(400, "invalid_parameter", `${parameter}: ${first.message}`, {
    parameter,
    issues: issues.map((issue) => ({ parameter: issue.path.join("."), message: issue.message })),
  });
}
