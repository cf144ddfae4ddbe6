import fc from "fast-check";
import { hexToBigInt } from "viem";
import { describe, expect, it } from "vitest";
import { ownerKeyFor } from "./walletKeys";

const MASTER = `0x${"42".repeat(32)}` as const;
const OTHER_MASTER = `0x${"43".repeat(32)}` as const;
const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

describe("ownerKeyFor", () => {
  it("derives the same key for a user on every call (every API instance derives it alike)", () => {
    expect(ownerKeyFor(MASTER, "alice")).toBe(ownerKeyFor(MASTER, "alice"));
  });

  it("is HKDF-SHA256 of the master key, salted, with the user id as info (RFC 5869, computed independently)", () => {
    // Python: prk = HMAC(salt, master); okm = HMAC(prk, b"alice" + b"\x01"). A change here moves every wallet.
    expect(ownerKeyFor(MASTER, "alice")).toBe("0xb83ddf9a1c96be66634bbfa3e8a6de9c1f433f493ca7239229790d1a1d46a9c8");
  });

  it("gives distinct users distinct keys, and another master key other keys", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (a, b) => {
        fc.pre(a !== b);
        expect(ownerKeyFor(MASTER, a)).not.toBe(ownerKeyFor(MASTER, b));
      }),
      { numRuns: 200 },
    );
    expect(ownerKeyFor(MASTER, "alice")).not.toBe(ownerKeyFor(OTHER_MASTER, "alice"));
  });

  it("keeps user ids that differ only by the counter suffix apart", () => {
    expect(ownerKeyFor(MASTER, "bob#1")).not.toBe(ownerKeyFor(MASTER, "bob"));
  });

  it("always yields a valid secp256k1 private key (32 bytes, in [1, n))", () => {
    fc.assert(
      fc.property(fc.string(), (userId) => {
        const key = ownerKeyFor(MASTER, userId);
        expect(key).toMatch(/^0x[0-9a-f]{64}$/);
        const value = hexToBigInt(key);
        expect(value > 0n && value < SECP256K1_ORDER).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});
