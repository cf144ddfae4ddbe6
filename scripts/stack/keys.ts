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

/**
 * More of the mnemonic's funded accounts, as the local bundler's extra executors: Alto holds an
 * executor until its bundle is in a block, so with one executor bundles go out one at a time.
 * Index 5 is the payment chain's facilitator; these follow it.
 */
export function localExtraExecutorKeys(count = 4): `0x${string}`[] {
  return Array.from({ length: count }, (_, i) =>
    toHex(mnemonicToAccount(TEST_MNEMONIC, { addressIndex: 6 + i }).getHdKey().privateKey!),
  );
}

/** Local-only secrets of the API: a JWT signing secret (kept beside the API, which mints local tokens) and the wallet master key. Test values. */
export { LOCAL_JWT_AUDIENCE, LOCAL_JWT_ISSUER, LOCAL_JWT_SECRET } from "../../api/auth/localToken";
export const LOCAL_WALLET_MASTER_KEY: `0x${string}` =
  "0x6c6f63616c2d746573742d6e6574776f726b2d77616c6c65742d6d6173746572";
