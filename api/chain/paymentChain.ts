// The API's handles on the payment network of paid research (eip155:5042002): a public client, the
// in-process facilitator's wallet (it submits settlements) and, on the test network, the operator's
// wallet that mints faucet USDC. Each wallet has viem's nonce manager: settlements run concurrently.
import { type Address, createWalletClient, type Hex, http, nonceManager, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { TestUSDCAbi } from "../../abis";
import { PAYMENT_CHAIN_ID, PAYMENT_USDC_ADDRESS } from "../../constants";
import { publicClientFor, testNetwork } from "./chain";
import { oneAtATime } from "./oneAtATime";

export type PaymentChainAccess = ReturnType<typeof createPaymentChainAccess>;

export function createPaymentChainAccess(options: { rpcUrl: string; facilitatorKey?: Hex; minterKey?: Hex }) {
  const chain = testNetwork(options.rpcUrl, PAYMENT_CHAIN_ID);
  const walletFor = (key: Hex) =>
    createWalletClient({
      chain,
      transport: http(options.rpcUrl),
      account: privateKeyToAccount(key, { nonceManager }),
      pollingInterval: 100,
    }).extend(publicActions);
  return {
    publicClient: publicClientFor(options.rpcUrl, PAYMENT_CHAIN_ID),
    facilitator: options.facilitatorKey ? walletFor(options.facilitatorKey) : undefined,
    minter: options.minterKey ? walletFor(options.minterKey) : undefined,
    sendAsMinter: oneAtATime(),
    usdc: PAYMENT_USDC_ADDRESS as Address,
  };
}

/** The payment network's faucet: mints test USDC and waits until the mint is mined. */
export async function mintPaymentUsdc(access: PaymentChainAccess, to: Address, units: bigint): Promise<Hex> {
  if (!access.minter) throw new Error("no operator key configured for the payment network");
  const minter = access.minter;
  const hash = await access.sendAsMinter(() =>
    minter.writeContract({ address: access.usdc, abi: TestUSDCAbi, functionName: "mint", args: [to, units] }),
  );
  const receipt = await access.publicClient.waitForTransactionReceipt({ hash, timeout: 30_000 });
  if (receipt.status !== "success") throw new Error(`mint ${hash} on the payment network reverted`);
  return hash;
}

export async function paymentUsdcBalance(access: PaymentChainAccess, holder: Address): Promise<bigint> {
  return access.publicClient.readContract({
    address: access.usdc,
    abi: TestUSDCAbi,
    functionName: "balanceOf",
    args: [holder],
  });
}
