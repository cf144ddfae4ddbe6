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
