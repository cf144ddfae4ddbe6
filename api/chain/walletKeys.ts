// Each user's smart-account owner key, derived on demand from WALLET_MASTER_KEY with HKDF over the
// user id: never stored, never logged, the same on every API instance.
import { hkdfSync } from "node:crypto";
import { bytesToHex, type Hex, hexToBytes } from "viem";

const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const SALT = "prediction-market/wallet-owner/v1";

export function ownerKeyFor(masterKey: Hex, userId: string): Hex {
  // A derived value outside [1, n) is vanishingly rare; the counter makes the rule total anyway.
  for (let counter = 0; ; counter++) {
    const info = counter === 0 ? userId : `${userId}#${counter}`;
    const key = new Uint8Array(hkdfSync("sha256", hexToBytes(masterKey), SALT, info, 32));
    const value = BigInt(bytesToHex(key));
    if (value > 0n && value < SECP256K1_ORDER) return bytesToHex(key);
  }
}
