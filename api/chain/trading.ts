// Market reads and sponsored user operations for the trade routes.
import { encodeFunctionData, http, maxUint256, type Address, type Hex } from "viem";
import { createPaymasterClient, getUserOperationHash, type UserOperation } from "viem/account-abstraction";
import { MarketAbi, TestUSDCAbi } from "../../abis";
import type { ChainAccess } from "./access";
import { verifyingPaymaster, SPONSORSHIP_VALIDITY_SECONDS } from "./paymaster";
import { simpleAccount, sponsoredBundlerClient, type Sponsor } from "./smartAccount";

export type Call = { to: Address; data: Hex };

export async function quoteBuy(chain: ChainAccess, market: Address, outcome: number, usdcUnits: bigint) {
  const [tokensOut, fee] = await chain.publicClient.readContract({
    address: market,
    abi: MarketAbi,
    functionName: "quoteBuy",
    args: [BigInt(outcome), usdcUnits],
  });
  return { tokensOut, fee };
}

export async function quoteSell(chain: ChainAccess, market: Address, outcome: number, tokenUnits: bigint) {
  const [usdcOut, fee] = await chain.publicClient.readContract({
    address: market,
    abi: MarketAbi,
    functionName: "quoteSell",
    args: [BigInt(outcome), tokenUnits],
  });
  return { usdcOut, fee };
}

export async function outcomeBalance(chain: ChainAccess, market: Address, holder: Address, outcome: number) {
  return chain.publicClient.readContract({ address: market, abi: MarketAbi, functionName: "balanceOf", args: [holder, BigInt(outcome)] });
}

/**
 * The calls of a buy: an approval only when the allowance is short, then the buy. The approval is
 * unlimited for this one market contract, so that concurrent buys of the same user never race on
 * the allowance.
 */
export async function buyCalls(chain: ChainAccess, owner: Address, market: Address, outcome: number, usdcUnits: bigint, minTokensOut: bigint): Promise<Call[]> {
  const usdc = chain.deployment.contracts.usdc;
  const allowance = await chain.publicClient.readContract({ address: usdc, abi: TestUSDCAbi, functionName: "allowance", args: [owner, market] });
  const buy = { to: market, data: encodeFunctionData({ abi: MarketAbi, functionName: "buy", args: [BigInt(outcome), usdcUnits, minTokensOut] }) };
  if (allowance >= usdcUnits) return [buy];
  return [{ to: usdc, data: encodeFunctionData({ abi: TestUSDCAbi, functionName: "approve", args: [market, maxUint256] }) }, buy];
}

export const sellCalls = (market: Address, outcome: number, tokenUnits: bigint, minUsdcOut: bigint): Call[] => [
  { to: market, data: encodeFunctionData({ abi: MarketAbi, functionName: "sell", args: [BigInt(outcome), tokenUnits, minUsdcOut] }) },
];

export const claimCalls = (market: Address): Call[] => [{ to: market, data: encodeFunctionData({ abi: MarketAbi, functionName: "claim" }) }];

export class BundlerUnavailableError extends Error {}

/** Accounts of this process whose deployment is being checked or is in flight. */
const deployments = new Map<Address, Promise<void>>();

/**
 * Sends the calls as one user operation from the user's account, gas sponsored by the paymaster.
 * Each operation takes a random nonce key, so that one user's concurrent operations do not
 * compete for the same sequential nonce.
 */
export async function sendSponsored(options: {
  chain: ChainAccess;
  bundlerUrl: string;
  /** The local VerifyingPaymaster's signer, or else an ERC-7677 paymaster service. */
  sponsor: { signerKey: Hex } | { paymasterUrl: string };
  ownerKey: Hex;
  calls: Call[];
  /** Called with the operation's hash before it goes to the bundler, so that a record can name it. */
  beforeSend: (userOpHash: Hex) => Promise<void>;
}): Promise<{ userOpHash: Hex; txHash: Hex | null; validUntil: number }> {
  const { chain } = options;
  const account = await simpleAccount(chain.publicClient, options.ownerKey);
  const paymaster: Sponsor =
    "paymasterUrl" in options.sponsor
      ? createPaymasterClient({ transport: http(options.sponsor.paymasterUrl) })
      : verifyingPaymaster({
          address: chain.deployment.contracts.verifyingPaymaster,
          signerKey: options.sponsor.signerKey,
          chainId: chain.deployment.chainId,
        });
  const bundler = sponsoredBundlerClient({ publicClient: chain.publicClient, account, bundlerUrl: options.bundlerUrl, paymaster });
  const nonceKey = BigInt(`0x${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("hex")}`);
  const validUntil = Math.floor(Date.now() / 1000) + SPONSORSHIP_VALIDITY_SECONDS;
  const send = async () => {
    try {
      const nonce = await account.getNonce({ key: nonceKey });
      return await withRetries(async () => {
        // The bundler's estimate leaves the inner call no margin, and under load a few operations
        // ran out of gas on chain (no revert data); half again plus 100k more (the EntryPoint charges only a tenth
        // of what goes unused) is the margin.
        // prepareUserOperation leaves its estimation stub in `signature`; the account signs anew.
        const { signature: _stub, ...prepared } = await bundler.prepareUserOperation({ calls: options.calls, nonce });
        const callGasLimit = prepared.callGasLimit + prepared.callGasLimit / 2n + 100_000n;
        const sponsorship = await paymaster.getPaymasterData({
          ...prepared,
          callGasLimit,
          chainId: chain.deployment.chainId,
          entryPointAddress: account.entryPoint.address,
        } as Parameters<typeof paymaster.getPaymasterData>[0]);
        const operation = { ...prepared, callGasLimit, ...sponsorship } as unknown as UserOperation<"0.7">;
        const signature = await account.signUserOperation(operation);
        const hash = getUserOperationHash({
          userOperation: { ...operation, signature },
          entryPointAddress: account.entryPoint.address,
          entryPointVersion: "0.7",
          chainId: chain.deployment.chainId,
        });
        await options.beforeSend(hash);
        return bundler.sendUserOperation({ ...operation, signature } as unknown as Parameters<typeof bundler.sendUserOperation>[0]);
      });
    } catch (error) {
      if (isUnreachable(error)) throw new BundlerUnavailableError("the bundler is unavailable", { cause: error });
      throw error;
    }
  };

  const userOpHash = await sendOnceDeployed(account, send, (hash) => bundler.waitForUserOperationReceipt({ hash, timeout: 60_000 }));
  return { userOpHash, txHash: await bundleTransaction(bundler, userOpHash), validUntil };
}

/**
 * Sends at once when the account exists. Otherwise the first caller's operation deploys it and the
 * others wait for its inclusion: the gate is registered before any await, so two concurrent
 * callers can never both carry the initCode.
 */
async function sendOnceDeployed(account: { address: Address; isDeployed: () => Promise<boolean> }, send: () => Promise<Hex>, included: (hash: Hex) => Promise<unknown>): Promise<Hex> {
  const existing = deployments.get(account.address);
  if (existing) {
    await existing.catch(() => {});
    return send();
  }
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  deployments.set(account.address, gate);
  const release = () => {
    open();
    if (deployments.get(account.address) === gate) deployments.delete(account.address);
  };
  try {
    if (await account.isDeployed()) {
      release();
      return send();
    }
    const hash = await send();
    void included(hash).catch(() => {}).finally(release);
    return hash;
  } catch (error) {
    release();
    throw error;
  }
}

/** The bundle transaction of an accepted operation, once the bundler has sent it (a few seconds at most). */
async function bundleTransaction(bundler: ReturnType<typeof sponsoredBundlerClient>, hash: Hex): Promise<Hex | null> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const status = (await bundler
      .request({ method: "pimlico_getUserOperationStatus" as never, params: [hash] as never })
      .catch(() => null)) as { status: string; transactionHash: Hex | null } | null;
    if (status?.transactionHash) return status.transactionHash;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return null;
}

/**
 * Under load the bundler's simulation sometimes fails with no revert data at all; that refusal is
 * transient (nothing was sent), so it is tried again, twice at most.
 */
async function withRetries<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      const transient = /reverted during simulation with reason: 0x\.?$/m.test(String((error as Error).message));
      if (!transient || tries >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * tries + Math.random() * 100));
    }
  }
}

function isUnreachable(error: unknown): boolean {
  for (let current = error as { cause?: unknown; name?: string; message?: string } | undefined; current; current = current.cause as typeof current) {
    if (current.name === "HttpRequestError" || /ECONNREFUSED|fetch failed|socket hang up/i.test(current.message ?? "")) return true;
  }
  return false;
}
