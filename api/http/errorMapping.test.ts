import { HTTPException } from "hono/http-exception";
import pg from "pg";
import { BaseError, ContractFunctionExecutionError, HttpRequestError, TimeoutError } from "viem";
import { describe, expect, it } from "vitest";
import { SubmissionSettledError } from "../db/submissions";
import { toApiError } from "./errorMapping";
import { ApiError, ERROR_CATALOGUE, ErrorEnvelope, walletNotFound } from "./errors";

const serverError = (code: string, message: string) => {
  const error = new pg.DatabaseError(message, 0, "error");
  error.code = code;
  return error;
};

describe("toApiError", () => {
  it("passes an ApiError on as it is", () => {
    const error = walletNotFound();
    expect(toApiError(error)).toBe(error);
  });

  it("maps a refused database connection to 503 database_unavailable, keeping it as the cause", async () => {
    const pool = new pg.Pool({ connectionString: "postgres://nobody@127.0.0.1:1/none", connectionTimeoutMillis: 2000 });
    const refused = await pool.query("SELECT 1").catch((error: unknown) => error);
    await pool.end();
    const mapped = toApiError(refused);
    expect(mapped).toMatchObject({ status: 503, code: "database_unavailable" });
    expect(mapped.cause).toBe(refused);
  });

  it.each([
    ["57P01", "terminating connection due to administrator command"],
    ["57P03", "the database system is starting up"],
    ["57P02", "terminating connection due to crash of another server process"],
    ["08006", "connection failure"],
    ["40P01", "deadlock detected"],
    ["40001", "could not serialize access due to concurrent update"],
  ])("maps the server's %s (%s) to 503 database_unavailable", (code, message) => {
    expect(toApiError(serverError(code, message))).toMatchObject({ status: 503, code: "database_unavailable" });
  });

  it.each([
    "Connection terminated unexpectedly",
    "Connection terminated due to connection timeout",
    "timeout exceeded when trying to connect",
    "Client has encountered a connection error and is not queryable",
  ])("maps node-postgres's '%s' to 503 database_unavailable", (message) => {
    expect(toApiError(new Error(message))).toMatchObject({ status: 503, code: "database_unavailable" });
  });

  it("keeps a query the server refuses for its content a 500: that is a missing validation", () => {
    const nul = serverError("22021", 'invalid byte sequence for encoding "UTF8": 0x00');
    expect(toApiError(nul)).toMatchObject({ status: 500, code: "internal_error", cause: nul });
  });

  it("does not blame the database for a refused connection further down a cause chain (the chain's RPC)", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:8545"), { code: "ECONNREFUSED" });
    expect(toApiError(new TypeError("fetch failed", { cause: refused }))).toMatchObject({ status: 500 });
  });

  it("maps a viem call whose node does not answer to 503 chain_unavailable", () => {
    const transport = new HttpRequestError({ url: "http://127.0.0.1:8545", details: "fetch failed" });
    const call = new ContractFunctionExecutionError(transport, { abi: [], functionName: "quoteBuy" });
    expect(toApiError(call)).toMatchObject({ status: 503, code: "chain_unavailable", cause: call });
    expect(toApiError(new TimeoutError({ body: {}, url: "http://127.0.0.1:8545" }))).toMatchObject({ status: 503 });
  });

  it("keeps a viem error that is not the transport's (a revert, a bad argument) a 500", () => {
    expect(toApiError(new BaseError("execution reverted"))).toMatchObject({ status: 500, code: "internal_error" });
  });

  it.each([
    [400, 400, "invalid_body"],
    [413, 413, "payload_too_large"],
    [415, 415, "unsupported_media_type"],
    [418, 500, "internal_error"],
  ] as const)("maps hono's HTTPException %i to %i %s", (thrown, status, code) => {
    expect(toApiError(new HTTPException(thrown, { message: "x" }))).toMatchObject({ status, code });
  });

  it("maps a write whose submission was settled before it was sent to 503 write_interrupted", () => {
    const settled = new SubmissionSettledError("42");
    const mapped = toApiError(settled);
    expect(mapped).toMatchObject({ status: 503, code: "write_interrupted" });
    expect(mapped.cause).toBe(settled);
  });

  it("maps anything else to 500 internal_error with the original as its cause", () => {
    const bug = new TypeError("cannot read properties of undefined");
    expect(toApiError(bug)).toMatchObject({
      status: 500,
      code: "internal_error",
      message: "internal error",
      cause: bug,
    });
    expect(toApiError("a string")).toMatchObject({ status: 500, code: "internal_error" });
  });
});

describe("the error catalogue", () => {
  it("gives every code a status from 400 to 599 and a one-line meaning", () => {
    for (const [code, { status, meaning }] of Object.entries(ERROR_CATALOGUE)) {
      expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(600);
      expect(meaning).not.toContain("\n");
    }
  });

  it("is the envelope's enum of codes", () => {
    expect(ErrorEnvelope.shape.error.shape.code.options).toEqual(Object.keys(ERROR_CATALOGUE));
  });

  it("keeps the error under an ApiError as its cause", () => {
    const cause = new Error("bundler said no");
    expect(new ApiError(503, "bundler_unavailable", "down", undefined, { cause }).cause).toBe(cause);
  });
});
