// The one path of every write that sends a user operation (trades now; tips, bonds and agent trades
// next): record the submission, pick the sponsor, send to the bundler, record the answer. A crash
// at any point leaves a record that api/writes/reconcile.ts settles on the next start.
import type { Hex } from "viem";
import type { UserOperation } from "viem/account-abstraction";
import { SPONSORSHIP_VALIDITY_SECONDS } from "../../constants";
import {
  BundlerUnavailableError,
  SendOutcomeUnknownError,
  storedUserOperation,
  UserOperationRejectedError,
} from "../chain/bundler";
import { type Call, type SponsorChoice, sendSponsoredUserOperation } from "../chain/sendUserOperation";
import type { Config } from "../config";
import type { WriteKind } from "../db/submissions";
import type { AppEnv } from "../http/env";
import { ApiError, bundlerUnavailable, chainUnavailable } from "../http/errors";

/** What a write needs of the request's context: `c.var` fits. */
export type WriteContext = Pick<AppEnv["Variables"], "config" | "chain" | "db" | "log" | "idempotencyKey">;

export type SponsoredWriteParameters<Answer> = {
  userId: string;
  /** The feature sending it (`buy`, `tip`, ...), kept with the record. */
  kind: WriteKind;
  /** The request as the user sent it, kept with the record. */
  request: unknown;
  calls: Call[];
  /** The owner key of the user's smart account (api/chain/walletKeys.ts). */
  ownerKey: Hex;
  /**
   * Records what the feature keeps of the write under its hash (a tip's post), after the submission
   * is named and before anything is sent, so that no crash leaves a sent operation without it.
   */
  beforeSend?: (txId: Hex) => Promise<void>;
  /** The answer to the user, from the operation's hash and its bundle transaction; recorded as sent. */
  answer: (sent: { txId: Hex; txHash: Hex | null }) => Answer;
};

export type SponsoredWriteReturnType<Answer> = Answer;

/** The sponsor this instance is configured with: an ERC-7677 service wins over the local signer. */
export function sponsorOf(config: Pick<Config, "PAYMASTER_URL" | "PAYMASTER_SIGNER_KEY">): SponsorChoice | undefined {
  if (config.PAYMASTER_URL) return { paymasterUrl: config.PAYMASTER_URL };
  if (config.PAYMASTER_SIGNER_KEY) return { signerKey: config.PAYMASTER_SIGNER_KEY };
  return undefined;
}

/**
 * Sends the calls as one sponsored user operation from the user's smart account and answers
 * `pending`, also when the bundler took it and never answered (its outcome is settled later).
 * Fails with 503 `chain_unavailable` or `bundler_unavailable` (nothing sent; the record, if any,
 * failed) or 409 `rejected` (refused by the bundler; nothing spent).
 *
 * @example
 * return c.json(await sponsoredWrite(c.var, {
 *   userId, kind: "claim", request: body, calls: claimCalls(market), ownerKey,
 *   answer: ({ txId, txHash }) => ({ txId, txHash, status: "pending" }),
 * }), 200);
 */
export async function sponsoredWrite<Answer>(
  context: WriteContext,
  parameters: SponsoredWriteParameters<Answer>,
): Promise<SponsoredWriteReturnType<Answer>> {
  const { config, chain, db, log } = context;
  if (!chain) throw chainUnavailable();
  const sponsor = sponsorOf(config);
  if (!config.BUNDLER_URL || !sponsor) throw bundlerUnavailable("no bundler or paymaster is configured");

  const id = await db.submissions.prepare({
    userId: parameters.userId,
    kind: parameters.kind,
    request: parameters.request,
    validUntilSeconds: Math.floor(Date.now() / 1000) + SPONSORSHIP_VALIDITY_SECONDS,
    idempotencyKey: context.idempotencyKey,
  });
  try {
    const sent = await sendSponsoredUserOperation({
      chain,
      bundlerUrl: config.BUNDLER_URL,
      sponsor,
      ownerKey: parameters.ownerKey,
      calls: parameters.calls,
      // The signed operation is kept so that one a bundler loses can be sent again (api/writes/settle.ts).
      beforeSend: async (hash: Hex, operation?: UserOperation<"0.7">) => {
        const answer = parameters.answer({ txId: hash, txHash: null });
        await db.submissions.attach(id, hash, answer, operation ? storedUserOperation(operation) : null);
        await parameters.beforeSend?.(hash);
      },
    });
    const answer = parameters.answer({ txId: sent.userOpHash, txHash: sent.txHash });
    await db.submissions.submitted(id, sent.userOpHash, sent.txHash, answer);
    return answer;
  } catch (error) {
    if (error instanceof SendOutcomeUnknownError) {
      // It may be in the mempool or mined: the answer is `pending`, and the settler
      // (api/writes/settle.ts) sends the stored operation again if the bundler does not hold it.
      const answer = parameters.answer({ txId: error.userOpHash, txHash: null });
      await db.submissions.submitted(id, error.userOpHash, null, answer);
      log.warn({ err: error, kind: parameters.kind }, "no answer from the bundler; the write is settled later");
      return answer;
    }
    if (error instanceof BundlerUnavailableError) {
      await db.submissions.failed(id, "bundler_unavailable");
      throw bundlerUnavailable(undefined, error);
    }
    if (error instanceof UserOperationRejectedError) {
      await db.submissions.failed(id, error.message.slice(0, 500));
      log.warn({ err: error, kind: parameters.kind }, "user operation refused");
      throw new ApiError(409, "rejected", error.message, undefined, { cause: error });
    }
    // Not an answer of the bundler (the record could not be written): the record stays `prepared`
    // and the reconciliation settles it by asking the bundler.
    throw error;
  }
}
