// While the API runs: writes it answered `pending` must not stay pending because the bundler lost
// them. Alto keeps its mempool in memory, so a bundler killed after accepting an operation and
// before bundling it forgets it, and nothing else would ever include it. The settler asks the
// bundler about every accepted write the indexer has not seen; one the bundler no longer holds is
// sent again from its stored signed operation, unless the EntryPoint has spent its nonce (it was
// included, and the indexer has not caught up: under load both a bundler's status and the indexer
// lag). The EntryPoint spends a nonce once, so a resend can never spend twice. A refusal of the
// resend fails the write only when it is not a passing one and the nonce is still unspent.
import type { Logger } from "pino";
import type { Hex, PublicClient } from "viem";
import {
  bundlerHolds,
  bundlerRpc,
  isTransientRefusal,
  isUnreachable,
  operationNonceSpent,
  type ResendOutcome,
  resendUserOperation,
  type StoredUserOperation,
  type UserOperationStatus,
  userOperationStatus,
} from "../chain/bundler";
import type { submissionQueries } from "../db/submissions";

/** How long after its acceptance a write is left to the bundler before the settler looks at it. */
export const SETTLE_AFTER_MS = 5_000;

export type SettleLostWritesParameters = {
  submissions: Pick<ReturnType<typeof submissionQueries>, "unindexed" | "failed">;
  bundler: ReturnType<typeof bundlerRpc>;
  /** Whether the EntryPoint spent the operation's nonce (api/chain/bundler.ts `operationNonceSpent`). */
  nonceSpent: (operation: StoredUserOperation) => Promise<boolean>;
  logger: Logger;
};

export type SettleLostWritesReturnType = { resent: number; dropped: number };

/** What to do with an accepted, unindexed write, from what the bundler says of it. */
export const lostWriteAction = (status: UserOperationStatus | null): "wait" | "resend" =>
  bundlerHolds(status) ? "wait" : "resend";

/**
 * The submission's new state after a resend: a refusal fails it, since no one holds it any more,
 * unless it is one that passes (the bundler's simulation under load): then the next pass tries again.
 */
export const failureOfResend = (outcome: ResendOutcome): string | null =>
  outcome.kind === "refused" && !isTransientRefusal(new Error(outcome.reason))
    ? `dropped by the bundler, and refused when sent again: ${outcome.reason}`
    : null;

/** One pass over the accepted writes the indexer has not seen. */
export async function settleLostWrites(parameters: SettleLostWritesParameters): Promise<SettleLostWritesReturnType> {
  const { submissions, bundler, nonceSpent, logger } = parameters;
  let resent = 0;
  let dropped = 0;
  for (const row of await submissions.unindexed(SETTLE_AFTER_MS)) {
    const status = await userOperationStatus(bundler, row.user_op_hash as Hex);
    if (lostWriteAction(status) !== "resend" || (await nonceSpent(row.user_op))) continue;
    const outcome = await resendUserOperation(bundler, row.user_op);
    const failure = failureOfResend(outcome);
    if (failure && !(await nonceSpent(row.user_op))) {
      await submissions.failed(row.id, failure);
      dropped++;
    } else if (outcome.kind === "accepted") resent++;
  }
  if (resent + dropped > 0) logger.info({ resent, dropped }, "settled writes the bundler had lost");
  return { resent, dropped };
}

/**
 * Every `intervalMs` until stopped, a pass that first settles what gone API processes left
 * (`reconcile`: a process killed after this one started is noticed here, not at a start), then,
 * with a bundler, runs `settleLostWrites`. A pass never overlaps the next.
 */
export function startWriteSettler(options: {
  submissions: SettleLostWritesParameters["submissions"];
  reconcile: () => Promise<unknown>;
  bundlerUrl: string | undefined;
  /** The chain node, to ask the EntryPoint whether a lost-looking operation was included. */
  publicClient: PublicClient | undefined;
  logger: Logger;
  intervalMs?: number;
}): { stop: () => Promise<void> } {
  const { publicClient } = options;
  const bundler = options.bundlerUrl && publicClient ? bundlerRpc(options.bundlerUrl) : undefined;
  const nonceSpent = (operation: StoredUserOperation) => operationNonceSpent(publicClient!, operation);
  const pass = async () => {
    await options.reconcile().catch((error) => {
      options.logger.warn({ err: error }, "reconciling cut-off writes failed; tried again on the next pass");
    });
    if (!bundler) return;
    await settleLostWrites({ submissions: options.submissions, bundler, nonceSpent, logger: options.logger }).catch(
      (error) => {
        // A bundler that is down is asked again on the next pass; anything else is worth a warning.
        if (!isUnreachable(error))
          options.logger.warn({ err: error }, "settling lost writes failed; tried again on the next pass");
      },
    );
  };
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(pass);
  }, options.intervalMs ?? 2_000);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
