import { HttpRequestError, TimeoutError } from "viem";
import { describe, expect, it } from "vitest";
import {
  BundlerUnavailableError,
  bundlerHolds,
  classifySendFailure,
  isTransientRefusal,
  isUnreachable,
  mayHaveReached,
  resendOutcomeOf,
  resendUserOperation,
  SponsoredWriteError,
  UserOperationRejectedError,
  userOperationGasPrice,
  userOperationStatus,
  withRetries,
} from "./bundler";

const HASH = `0x${"ab".repeat(32)}` as const;
const TRANSIENT = "UserOperation reverted during simulation with reason: 0x";

describe("classifySendFailure", () => {
  it("calls a failed connection, however deep under the error, the bundler being unavailable", () => {
    const refused = new Error("outer", { cause: new Error("fetch failed", { cause: new Error("ECONNREFUSED") }) });
    const error = classifySendFailure(refused);
    expect(error).toBeInstanceOf(BundlerUnavailableError);
    expect(error.cause).toBe(refused);
    const http = new HttpRequestError({ url: "http://127.0.0.1:1", cause: new Error("socket hang up") });
    expect(classifySendFailure(http)).toBeInstanceOf(BundlerUnavailableError);
  });

  it("calls any other failure a refusal, with viem's short message as the reason", () => {
    const refusal = Object.assign(new Error("long details"), { shortMessage: "AA21 didn't pay prefund" });
    const error = classifySendFailure(refusal);
    expect(error).toBeInstanceOf(UserOperationRejectedError);
    expect((error as UserOperationRejectedError).reason).toBe("AA21 didn't pay prefund");
    expect(error.message).toBe("the user operation was refused: AA21 didn't pay prefund");
    expect((classifySendFailure(new Error("x")) as UserOperationRejectedError).reason).toBe("simulation failed");
  });

  it("keeps an error that is already classified", () => {
    const error = new BundlerUnavailableError({ cause: null });
    expect(classifySendFailure(error)).toBe(error);
  });

  it("gives both classes one base class, so callers can tell a send failure from anything else", () => {
    expect(classifySendFailure(new Error("x"))).toBeInstanceOf(SponsoredWriteError);
    expect(new BundlerUnavailableError({ cause: null }).name).toBe("BundlerUnavailableError");
  });
});

describe("isUnreachable and isTransientRefusal", () => {
  it("tell a connection failure from an answer", () => {
    expect(isUnreachable(new Error("connect ECONNREFUSED 127.0.0.1:4337"))).toBe(true);
    expect(isUnreachable(new Error("AA23 reverted"))).toBe(false);
    expect(isUnreachable(undefined)).toBe(false);
  });

  it("recognise only a simulation that reverted without any data as transient", () => {
    expect(isTransientRefusal(new Error(`details\n${TRANSIENT}`))).toBe(true);
    expect(isTransientRefusal(new Error(`${TRANSIENT}1234`))).toBe(false);
    expect(isTransientRefusal(new Error("AA21 didn't pay prefund"))).toBe(false);
  });
});

describe("mayHaveReached", () => {
  it("holds for a time-out and for a connection cut while answering, which leave the operation's fate open", () => {
    expect(mayHaveReached(new TimeoutError({ body: {}, url: "http://127.0.0.1:1/rpc" }))).toBe(true);
    const hangUp = new HttpRequestError({ url: "http://127.0.0.1:1/rpc", cause: new Error("socket hang up") });
    expect(mayHaveReached(hangUp)).toBe(true);
    const reset = new TypeError("fetch failed", { cause: Object.assign(new Error("read"), { code: "ECONNRESET" }) });
    expect(mayHaveReached(reset)).toBe(true);
  });

  it("does not hold for a refused connection or an answer of the bundler, where nothing was taken", () => {
    const refused = new TypeError("fetch failed", {
      cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" }),
    });
    expect(mayHaveReached(new HttpRequestError({ url: "http://127.0.0.1:1/rpc", cause: refused }))).toBe(false);
    expect(mayHaveReached(new Error(TRANSIENT))).toBe(false);
    expect(mayHaveReached(new Error("AA25 invalid account nonce"))).toBe(false);
  });
});

describe("withRetries", () => {
  it("tries a transient refusal again, up to the number of attempts", async () => {
    let calls = 0;
    const result = await withRetries(async () => {
      calls++;
      if (calls < 3) throw new Error(TRANSIENT);
      return "sent";
    });
    expect({ result, calls }).toEqual({ result: "sent", calls: 3 });

    calls = 0;
    const failing = withRetries(async () => {
      calls++;
      throw new Error(TRANSIENT);
    }, 2);
    await expect(failing).rejects.toThrow(TRANSIENT);
    expect(calls).toBe(2);
  });

  it("gives up at once on any other failure", async () => {
    let calls = 0;
    const failing = withRetries(async () => {
      calls++;
      throw new Error("AA25 invalid account nonce");
    });
    await expect(failing).rejects.toThrow("AA25");
    expect(calls).toBe(1);
  });
});

describe("bundler RPC", () => {
  const rpc = (answer: unknown) => {
    const requests: unknown[] = [];
    return {
      requests,
      request: (async (request: unknown) => {
        requests.push(request);
        return answer;
      }) as never,
    };
  };

  it("asks pimlico_getUserOperationStatus for an operation's status", async () => {
    const bundler = rpc({ status: "included", transactionHash: "0x01" });
    expect(await userOperationStatus(bundler, HASH)).toEqual({ status: "included", transactionHash: "0x01" });
    expect(bundler.requests).toEqual([{ method: "pimlico_getUserOperationStatus", params: [HASH] }]);
    expect(await userOperationStatus(rpc(undefined), HASH)).toBeNull();
  });

  it("reads the fast gas price of pimlico_getUserOperationGasPrice", async () => {
    const bundler = rpc({ fast: { maxFeePerGas: "0x64", maxPriorityFeePerGas: "0xa" } });
    expect(await userOperationGasPrice(bundler)).toEqual({ maxFeePerGas: 100n, maxPriorityFeePerGas: 10n });
  });

  it("holds an operation that is queued, sent or included, not one it never saw or refused", () => {
    for (const status of ["not_queued", "submitted", "included"])
      expect(bundlerHolds({ status, transactionHash: null })).toBe(true);
    for (const status of ["not_found", "rejected"]) expect(bundlerHolds({ status, transactionHash: null })).toBe(false);
    expect(bundlerHolds(null)).toBe(false);
  });
});

describe("sending a stored operation again", () => {
  const OPERATION = { sender: "0x01", nonce: "0x0", signature: "0x02" } as never;

  it("sends it with eth_sendUserOperation to EntryPoint v0.7 and reports it accepted", async () => {
    const requests: unknown[] = [];
    const bundler = { request: (async (request: unknown) => requests.push(request) && HASH) as never };
    expect(await resendUserOperation(bundler, OPERATION)).toEqual({ kind: "accepted" });
    expect(requests).toEqual([
      { method: "eth_sendUserOperation", params: [OPERATION, "0x0000000071727De22E5E9d8BAf0edAc6f37da032"] },
    ]);
  });

  it("reads a used nonce or a duplicate as the operation being known: included or still held", () => {
    expect(
      resendOutcomeOf(new Error("UserOperation failed validation with reason: AA25 invalid account nonce")),
    ).toEqual({ kind: "known" });
    expect(resendOutcomeOf(new Error("Already known"))).toEqual({ kind: "known" });
    expect(resendOutcomeOf(new Error("AA10 sender already constructed"))).toEqual({ kind: "known" });
  });

  it("reads any other answer as a refusal with its reason, and no answer as the bundler being unavailable", () => {
    const expired = Object.assign(new Error("long"), { shortMessage: "AA32 paymaster expired or not due" });
    expect(resendOutcomeOf(expired)).toEqual({ kind: "refused", reason: "AA32 paymaster expired or not due" });
    expect(() => resendOutcomeOf(new Error("fetch failed", { cause: new Error("ECONNREFUSED") }))).toThrow(
      BundlerUnavailableError,
    );
  });
});
