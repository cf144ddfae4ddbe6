import { describe, expect, it } from "vitest";
import { paddedCallGasLimit, randomNonceKey } from "../chain/sendUserOperation";
import { sponsorOf } from "./sponsoredWrite";

const KEY = `0x${"01".repeat(32)}` as const;

describe("sponsorOf", () => {
  it("prefers an ERC-7677 paymaster service over the local signer", () => {
    expect(sponsorOf({ PAYMASTER_URL: "http://127.0.0.1:9/pm", PAYMASTER_SIGNER_KEY: KEY })).toEqual({
      paymasterUrl: "http://127.0.0.1:9/pm",
    });
  });

  it("uses the local VerifyingPaymaster signer without a service, and nothing without either", () => {
    expect(sponsorOf({ PAYMASTER_URL: undefined, PAYMASTER_SIGNER_KEY: KEY })).toEqual({ signerKey: KEY });
    expect(sponsorOf({ PAYMASTER_URL: undefined, PAYMASTER_SIGNER_KEY: undefined })).toBeUndefined();
  });
});

describe("the user operation's gas and nonce", () => {
  it("pads the bundler's call gas estimate by half again plus 100k", () => {
    expect(paddedCallGasLimit(0n)).toBe(100_000n);
    expect(paddedCallGasLimit(200_000n)).toBe(400_000n);
  });

  it("draws a fresh 192-bit nonce key for every operation", () => {
    const keys = Array.from({ length: 100 }, randomNonceKey);
    expect(new Set(keys).size).toBe(100);
    for (const key of keys) expect(key >= 0n && key < 2n ** 192n).toBe(true);
  });
});
