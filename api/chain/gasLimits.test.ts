import { describe, expect, it } from "vitest";
import { createGasLimitCache, gasShapeKey } from "./gasLimits";

const PAYMASTER = "0x00000000000000000000000000000000000000aa";
const estimated = {
  verificationGasLimit: 59_304n,
  preVerificationGas: 52_197n,
  paymasterVerificationGasLimit: 21_219n,
  paymasterPostOpGasLimit: 0n,
};

describe("gasShapeKey", () => {
  it("puts operations of the same sponsor and call data size together, whatever the data says", () => {
    expect(gasShapeKey({ sponsor: PAYMASTER, callData: "0x1234" })).toBe(
      gasShapeKey({ sponsor: PAYMASTER, callData: "0xabcd" }),
    );
  });

  it("keeps apart another call data size and another sponsor", () => {
    const key = gasShapeKey({ sponsor: PAYMASTER, callData: "0x1234" });
    expect(gasShapeKey({ sponsor: PAYMASTER, callData: "0x123456" })).not.toBe(key);
    expect(gasShapeKey({ sponsor: "http://paymaster.example/rpc", callData: "0x1234" })).not.toBe(key);
  });
});

describe("createGasLimitCache", () => {
  it("knows nothing of a shape until the bundler has estimated one", () => {
    expect(createGasLimitCache().get("shape")).toBeUndefined();
  });

  it("keeps the validation-side limits of an estimate and nothing of its call", () => {
    const cache = createGasLimitCache();
    cache.remember("shape", { ...estimated, callGasLimit: 89_564n } as typeof estimated);
    expect(cache.get("shape")).toEqual(estimated);
  });

  it("counts a missing postOp limit as none (the VerifyingPaymaster has no postOp)", () => {
    const cache = createGasLimitCache();
    cache.remember("shape", { ...estimated, paymasterPostOpGasLimit: undefined });
    expect(cache.get("shape")?.paymasterPostOpGasLimit).toBe(0n);
  });

  it("keeps nothing from an estimate that lacks a validation-side limit", () => {
    const cache = createGasLimitCache();
    cache.remember("shape", { ...estimated, paymasterVerificationGasLimit: undefined });
    cache.remember("other", { ...estimated, verificationGasLimit: undefined });
    expect(cache.size).toBe(0);
  });

  it("forgets a shape whose limits were refused, so that the next operation is estimated again", () => {
    const cache = createGasLimitCache();
    cache.remember("shape", estimated);
    cache.forget("shape");
    expect(cache.get("shape")).toBeUndefined();
  });
});
