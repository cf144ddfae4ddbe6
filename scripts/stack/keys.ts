// The local stack's well-known keys, one role each, from anvil's test mnemonic. Production
// configures its own keys through the environment instead (see README).
import { toHex } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { TEST_MNEMONIC } from "./chain";

const ROLES = ["operator", "paymasterSigner", "bundlerExecutor", "bundlerUtility", "treasury"] as const;
export type Role = (typeof ROLES)[number];

export function localKeys(): Record<Role, `0x${string}`> {
  return Object.fromEntries(
    ROLES.map((role, addressIndex) => {
      const privateKey = mnemonicToAccount(TEST_MNEMONIC, { addressIndex }).getHdKey().privateKey!;
      return [role, toHex(privateKey)];
    }),
  ) as Record<Role, `0x${string}`>;
}

/** Local-only secrets of the API: a JWT signing secret (kept beside the API, which mints local tokens) and the wallet master key. Test values. */
export { LOCAL_JWT_AUDIENCE, LOCAL_JWT_ISSUER, LOCAL_JWT_SECRET } from "../../api/auth/localToken";
export const LOCAL_WALLET_MASTER_KEY: `0x${string}` =
  "0x6c6f63616c2d746573742d6e6574776f726b2d77616c6c65742d6d6173746572";
