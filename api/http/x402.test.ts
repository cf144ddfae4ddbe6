import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { describe, expect, it } from "vitest";
import { paymentIdentity } from "./x402";

const payer = "0x70997970C51812dc3A010C7d01b50e20d4dc79C8";
const payment = (signature: string, extensions?: Record<string, unknown>): string =>
  encodePaymentSignatureHeader({
    x402Version: 2,
    accepted: { scheme: "exact", network: "eip155:5042002" },
    payload: {
      authorization: { from: payer, to: payer, value: "10000", validAfter: "0", validBefore: "9", nonce: "0x01" },
      signature,
    },
    ...(extensions && { extensions }),
  } as unknown as PaymentPayload);

describe("which payment a request carries", () => {
  it("is the same for the same payment and question, and names the payer, nonce and amount", () => {
    const one = paymentIdentity(payment("0xaa"), "q1");
    expect(one).toMatchObject({ payer, nonce: "0x01", amount: "10000", network: "eip155:5042002" });
    expect(paymentIdentity(payment("0xAA"), "q1")?.key).toBe(one?.key);
  });

  it("differs for another question or another signature", () => {
    const key = paymentIdentity(payment("0xaa"), "q1")?.key;
    expect(paymentIdentity(payment("0xaa"), "q2")?.key).not.toBe(key);
    expect(paymentIdentity(payment("0xbb"), "q1")?.key).not.toBe(key);
  });

  it("follows the payment-identifier when the client sends one, whatever the signature", () => {
    const id = { "payment-identifier": { info: { required: false, id: "pay_0123456789abcdef0123" } } };
    expect(paymentIdentity(payment("0xaa", id), "q1")?.key).toBe(paymentIdentity(payment("0xbb", id), "q1")?.key);
  });

  it.each(["", "not base64 at all", Buffer.from("{}").toString("base64"), Buffer.from("[1]").toString("base64")])(
    "is none for a header that is not an EIP-3009 payment (%j)",
    (header) => {
      expect(paymentIdentity(header, "q1")).toBeUndefined();
    },
  );
});
