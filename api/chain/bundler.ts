// Everything specific to the bundler (Alto, Pimlico's RPC dialect): its client, its gas price, the
// status of an operation it was sent, and how its failures read. The send path and the crash
// reconciliation both ask through these functions, so a different bundler changes this file only.
import { type Client, createClient, type Hex, http, type PublicClient } from "viem";
import {
  createBundlerClient,
  entryPoint07Abi,
  entryPoint07Address,
  formatUserOperationRequest,
  type UserOperation,
} from "viem/account-abstraction";
import type { SimpleAccount, Sponsor } from "./smartAccount";

/** A sponsored send failed in a way that says nothing about the operation itself. */
export class SponsoredWriteError extends Error {
  override name = "SponsoredWriteError";
}

/** The bundler (or the chain node under it) could not be reached: nothing was sent, a retry may work. */
export class BundlerUnavailableError extends SponsoredWriteError {
  override name = "BundlerUnavailableError";
  constructor(options: { cause: unknown }) {
    super("the bundler is unavailable", options);
  }
}

/** The bundler refused the operation (its simulation failed, or a paymaster declined): nothing was spent. */
export class UserOperationRejectedError extends SponsoredWriteError {
  override name = "UserOperationRejectedError";
  /** viem's one-line account of the refusal, fit to show a user. */
  readonly reason: string;
  constructor(options: { cause: unknown }) {
    const reason = (options.cause as { shortMessage?: string } | undefined)?.shortMessage ?? "simulation failed";
    super(`the user operation was refused: ${reason}`, options);
    this.reason = reason;
  }
}

/**
 * The operation went to the bundler and no answer came back (a time-out, a connection cut while it
 * was answering): it may be in the mempool or even mined. It keeps its hash, so that the write can
 * answer `pending` and be settled from what the bundler and the indexer later say of that hash.
 */
export class SendOutcomeUnknownError extends SponsoredWriteError {
  override name = "SendOutcomeUnknownError";
  readonly userOpHash: Hex;
  constructor(options: { cause: unknown; userOpHash: Hex }) {
    super("the bundler did not answer the operation it was sent", options);
    this.userOpHash = options.userOpHash;
  }
}

/** Whether a failed request may have reached the bundler: it timed out, or its connection was cut after opening. */
export function mayHaveReached(error: unknown): boolean {
  for (
    let current = error as { cause?: unknown; name?: string; message?: string; code?: string } | undefined;
    current;
    current = current.cause as typeof current
  ) {
    const text = `${current.code ?? ""} ${current.message ?? ""}`;
    if (/ECONNREFUSED/.test(text)) return false;
    if (current.name === "TimeoutError" || /took too long|socket hang up|other side closed|ECONNRESET/i.test(text))
      return true;
  }
  return false;
}

/** What the bundler says of an operation it was sent. */
export type UserOperationStatus = { status: string; transactionHash: Hex | null };

type Rpc = Pick<Client, "request">;

/** A client for the bundler's own methods, when there is no account to send from. */
export const bundlerRpc = (bundlerUrl: string): Rpc => createClient({ transport: http(bundlerUrl) });

/** The client that prices, sponsors and sends one account's user operations. */
export function sponsoredBundlerClient(options: {
  publicClient: PublicClient;
  account: SimpleAccount;
  bundlerUrl: string;
  paymaster: Sponsor;
}) {
  return createBundlerClient({
    client: options.publicClient,
    account: options.account,
    transport: http(options.bundlerUrl),
    paymaster: options.paymaster,
    pollingInterval: 100,
    // Gas is sponsored, but the bundler still prices it: ask the bundler, not the node.
    userOperation: { estimateFeesPerGas: ({ bundlerClient }) => userOperationGasPrice(bundlerClient) },
  });
}

export async function userOperationGasPrice(bundler: Rpc) {
  const fees = (await bundler.request({ method: "pimlico_getUserOperationGasPrice" as never } as never)) as {
    fast: { maxFeePerGas: Hex; maxPriorityFeePerGas: Hex };
  };
  return { maxFeePerGas: BigInt(fees.fast.maxFeePerGas), maxPriorityFeePerGas: BigInt(fees.fast.maxPriorityFeePerGas) };
}

/** The bundler's status of an operation; null when it does not answer the question. */
export async function userOperationStatus(bundler: Rpc, hash: Hex): Promise<UserOperationStatus | null> {
  const status = (await bundler.request({
    method: "pimlico_getUserOperationStatus" as never,
    params: [hash] as never,
  })) as UserOperationStatus | null;
  return status ?? null;
}

/** Whether the bundler has the operation (queued, sent or included), as opposed to never or no longer. */
export const bundlerHolds = (status: UserOperationStatus | null): status is UserOperationStatus =>
  status !== null && status.status !== "not_found" && status.status !== "rejected";

/** The bundle transaction of an accepted operation, once the bundler has sent it; null after `timeoutMs`. */
export async function bundleTransaction(bundler: Rpc, hash: Hex, timeoutMs = 5_000): Promise<Hex | null> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = await userOperationStatus(bundler, hash).catch(() => null);
    if (status?.transactionHash) return status.transactionHash;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return null;
}

/**
 * Under load Alto's simulation sometimes fails with no revert data at all; nothing was sent, and
 * the same operation usually passes a moment later.
 */
export const isTransientRefusal = (error: unknown) =>
  /reverted during simulation with reason: 0x\.?$/m.test(String((error as Error | undefined)?.message));

/** Tries `attempt` again after a transient refusal, `attempts` times in all. */
export async function withRetries<T>(attempt: () => Promise<T>, attempts = 3): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isTransientRefusal(error) || tries >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * tries + Math.random() * 100));
    }
  }
}

/** Whether the error, or one under it, is a connection that failed rather than an answer. */
export function isUnreachable(error: unknown): boolean {
  for (
    let current = error as { cause?: unknown; name?: string; message?: string } | undefined;
    current;
    current = current.cause as typeof current
  ) {
    if (current.name === "HttpRequestError" || /ECONNREFUSED|fetch failed|socket hang up/i.test(current.message ?? ""))
      return true;
  }
  return false;
}

/** A signed operation as the bundler's RPC takes it (hex quantities): fit to store as JSON and send again. */
export type StoredUserOperation = ReturnType<typeof formatUserOperationRequest>;

export const storedUserOperation = (operation: UserOperation<"0.7">): StoredUserOperation =>
  formatUserOperationRequest(operation);

/** What came of sending an operation again: taken, already with the bundler or spent on chain, or refused. */
export type ResendOutcome = { kind: "accepted" } | { kind: "known" } | { kind: "refused"; reason: string };

/**
 * Sends an operation signed earlier to the bundler again, after the bundler lost it (a restart
 * empties Alto's mempool). It cannot be included twice: the EntryPoint spends its nonce once, and
 * the bundler refuses a used nonce (AA25). Throws a BundlerUnavailableError when no bundler answers.
 */
export async function resendUserOperation(bundler: Rpc, operation: StoredUserOperation): Promise<ResendOutcome> {
  try {
    await bundler.request({
      method: "eth_sendUserOperation" as never,
      params: [operation, entryPoint07Address] as never,
    });
    return { kind: "accepted" };
  } catch (error) {
    return resendOutcomeOf(error);
  }
}

/** A refusal of a resend: a duplicate or a used nonce means the operation is held or was included. */
export function resendOutcomeOf(error: unknown): ResendOutcome {
  if (isUnreachable(error)) throw new BundlerUnavailableError({ cause: error });
  const message = String((error as Error | undefined)?.message);
  // AA10: the account this operation would deploy exists (only an account's first operation deploys it).
  if (/\bAA25\b|\bAA10\b|already known/i.test(message)) return { kind: "known" };
  return { kind: "refused", reason: (error as { shortMessage?: string }).shortMessage ?? message.slice(0, 300) };
}

/**
 * Whether the EntryPoint has spent the operation's nonce: the operation, or another with the same
 * nonce, was included, and sending it again can only be refused.
 */
export async function operationNonceSpent(
  publicClient: PublicClient,
  operation: StoredUserOperation,
): Promise<boolean> {
  const nonce = BigInt(operation.nonce as Hex);
  const next = await publicClient.readContract({
    address: entryPoint07Address,
    abi: entryPoint07Abi,
    functionName: "getNonce",
    args: [operation.sender as Hex, nonce >> 64n],
  });
  return next > nonce;
}

/** A failure of a send, as one of the classes above. */
export const classifySendFailure = (error: unknown): SponsoredWriteError =>
  error instanceof SponsoredWriteError
    ? error
    : isUnreachable(error)
      ? new BundlerUnavailableError({ cause: error })
      : new UserOperationRejectedError({ cause: error });
