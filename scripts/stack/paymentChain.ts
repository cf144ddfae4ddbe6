// The payment network of paid research as a second anvil: chain id 5042002 (Circle's Arc testnet),
// its USDC at the address Arc has it, and Multicall3 at its canonical address. Both are placed with
// anvil_setCode, so the addresses are the real network's and no deployment can move them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Hex,
  http,
  pad,
  parseEther,
  toHex,
} from "viem";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { TestUSDCAbi } from "../../abis";
import { PAYMENT_CHAIN_ID, PAYMENT_USDC_ADDRESS } from "../../constants";
import { startChain, TEST_MNEMONIC } from "./chain";
import type { Child } from "./processes";

export const MULTICALL3_ADDRESS: Address = "0xcA11bde05977b3631167028862bE2a173976CA11";
/** Solady Ownable's owner slot: `~uint256(uint32(bytes4(keccak256("_OWNER_SLOT_NOT"))))`. */
const OWNER_SLOT: Hex = "0xffffffffffffffffffffffffffffffffffffffffffffffffffffffff74873927";
const MINTER_ROLE = 1n;

/**
 * The in-process facilitator's key: anvil account 5, which submits settlements on the payment
 * chain and nothing else, so that its nonces are never shared with another writer.
 */
export function localFacilitatorKey(): Hex {
  return toHex(mnemonicToAccount(TEST_MNEMONIC, { addressIndex: 5 }).getHdKey().privateKey!);
}

const runtimeCode = (name: string): Hex => {
  const artifact = JSON.parse(
    readFileSync(join(import.meta.dirname, "../../out", `${name}.sol`, `${name}.json`), "utf8"),
  );
  return artifact.deployedBytecode.object;
};

export type PaymentChain = { rpcUrl: string; chainId: number; usdc: Address; multicall3: Address };

/**
 * Starts the chain and places USDC (owned by `minterKey`'s account, which may mint: the faucet) and
 * Multicall3. TestUSDC keeps no immutables and computes its EIP-712 domain from the running
 * address and chain id, so its runtime code works unchanged at Arc's USDC address.
 */
export async function startPaymentChain(options: {
  port: number;
  logFile: string;
  minterKey: Hex;
  onSpawn?: (child: Child) => void;
}): Promise<{ child: Child } & PaymentChain> {
  const { child, rpcUrl } = await startChain({
    port: options.port,
    logFile: options.logFile,
    chainId: PAYMENT_CHAIN_ID,
    onSpawn: options.onSpawn,
  });
  const transport = http(rpcUrl);
  const chain = {
    id: PAYMENT_CHAIN_ID,
    name: "payment",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  } as const;
  const testClient = createTestClient({ mode: "anvil", transport, chain });
  const minter = privateKeyToAccount(options.minterKey);
  await testClient.setBalance({ address: minter.address, value: parseEther("1000000") });
  await testClient.setCode({ address: PAYMENT_USDC_ADDRESS, bytecode: runtimeCode("TestUSDC") });
  await testClient.setStorageAt({ address: PAYMENT_USDC_ADDRESS, index: OWNER_SLOT, value: pad(minter.address) });
  await testClient.setCode({ address: MULTICALL3_ADDRESS, bytecode: runtimeCode("Multicall3") });

  const wallet = createWalletClient({ chain, transport, account: minter });
  const publicClient = createPublicClient({ chain, transport });
  const hash = await wallet.writeContract({
    address: PAYMENT_USDC_ADDRESS,
    abi: TestUSDCAbi,
    functionName: "grantRoles",
    args: [minter.address, MINTER_ROLE],
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (receipt.status !== "success") throw new Error(`granting the minter role on the payment chain reverted (${hash})`);
  return { child, rpcUrl, chainId: PAYMENT_CHAIN_ID, usdc: PAYMENT_USDC_ADDRESS, multicall3: MULTICALL3_ADDRESS };
}
