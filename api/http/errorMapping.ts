// What a thrown error becomes in the answer: an ApiError as it is; hono's own exceptions (a body
// that is not JSON, the wrong media type, too large) as their catalogue codes; a lost or refused
// database connection as 503 database_unavailable, so that a restart of PostgreSQL costs failed
// requests and no more; a chain node that does not answer a viem call as 503 chain_unavailable; a
// write whose submission a reconciliation settled before it was sent as 503 write_interrupted;
// anything else as 500 internal_error. The original error stays as `cause`.
import { HTTPException } from "hono/http-exception";
import { HttpRequestError, TimeoutError, BaseError as ViemError, WebSocketRequestError } from "viem";
import { SubmissionSettledError } from "../db/submissions";
import {
  ApiError,
  chainUnavailable,
  databaseUnavailable,
  internalError,
  invalidBody,
  payloadTooLarge,
  unsupportedMediaType,
  writeInterrupted,
} from "./errors";

/** Socket-level failures of a connection (node's codes). */
const CONNECTION_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH"]);
/**
 * PostgreSQL's SQLSTATEs for a server that is going away, starting, or out of connection slots, and
 * for a statement it gave up on that succeeds when sent again: a deadlock (a read meets the indexer
 * rebuilding its views after a restart) or a serialization failure.
 */
const UNAVAILABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300", "40P01", "40001"]);
/** node-postgres and pg-pool report a lost connection or an exhausted wait only in the message. */
const CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /is not queryable$/,
  /^Cannot use a pool after calling end on the pool/,
];

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPException) return fromHttpException(error);
  if (isDatabaseUnavailable(error)) return databaseUnavailable(error);
  if (isChainUnavailable(error)) return chainUnavailable("the chain node did not answer; try again", error);
  if (error instanceof SubmissionSettledError) return writeInterrupted(error);
  return internalError(error);
}

function fromHttpException(error: HTTPException): ApiError {
  switch (error.status) {
    case 400:
      return invalidBody(error);
    case 413:
      return payloadTooLarge(undefined, error);
    case 415:
      return unsupportedMediaType(undefined, error);
    default:
      return internalError(error);
  }
}

/**
 * node-postgres passes socket errors on as they are (an AggregateError when several addresses were
 * tried). Only the error itself is read, not its causes: a failed fetch to the chain also has an
 * ECONNREFUSED under it, and that is not the database.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code } = error as { code?: unknown };
  if (
    typeof code === "string" &&
    (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith("08"))
  )
    return true;
  return CONNECTION_MESSAGES.some((pattern) => pattern.test(error.message));
}

/** A viem call whose transport failed (the node refused, dropped or did not answer in time). */
export function isChainUnavailable(error: unknown): boolean {
  if (!(error instanceof ViemError)) return false;
  return Boolean(
    error.walk(
      (cause) =>
        cause instanceof HttpRequestError || cause instanceof TimeoutError || cause instanceof WebSocketRequestError,
    ),
  );
}
