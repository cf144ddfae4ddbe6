// On start and then on every pass of the write settler: settle the writes that the end of an API
// process cut short. Several processes share the database, so only what a process that is gone left
// is settled (api/db/instances.ts): a live process's writes are in flight, not cut short. A
// submission still `prepared` was recorded but the answer of the bundler never was. If the indexer
// or the bundler knows its user operation, it was sent; otherwise nothing was sent (or the bundler
// dropped it), and it fails so that no record stays pending for ever. Then the Idempotency-Keys of
// the requests cut short are settled from their submissions, so that a client retrying with its key
// is answered (replayed, or acted on anew when nothing was sent) rather than told "in progress".

import type { Logger } from "pino";
import type { Hex } from "viem";
import { bundlerHolds, bundlerRpc, type UserOperationStatus, userOperationStatus } from "../chain/bundler";
import type { idempotencyQueries } from "../db/idempotency";
import type { instanceQueries } from "../db/instances";
import type { submissionQueries } from "../db/submissions";

export type ReconcileSubmissionsParameters = {
  submissions: Pick<ReturnType<typeof submissionQueries>, "unfinished" | "settleSubmitted" | "settleNotSent">;
  idempotency: Pick<ReturnType<typeof idempotencyQueries>, "settleCutShort">;
  instances: Pick<ReturnType<typeof instanceQueries>, "forgetGone">;
  bundlerUrl: string | undefined;
  logger: Logger;
};

export type ReconcileSubmissionsReturnType = {
  submitted: number;
  failed: number;
  keys: { replayed: number; released: number };
};

export async function reconcileSubmissions(
  parameters: ReconcileSubmissionsParameters,
): Promise<ReconcileSubmissionsReturnType> {
  const { submissions, logger } = parameters;
  const bundler = parameters.bundlerUrl ? bundlerRpc(parameters.bundlerUrl) : undefined;
  let submitted = 0;
  let failed = 0;
  for (const row of await submissions.unfinished()) {
    let sent: UserOperationStatus | boolean = false;
    if (row.user_op_hash) {
      try {
        sent = row.indexed || (await heldBy(bundler, row.user_op_hash as Hex));
      } catch (error) {
        // The bundler cannot be asked now; the status route fails it once its deadline passes.
        logger.warn({ err: error, id: row.id }, "cannot reconcile a submission now");
        continue;
      }
    }
    if (row.user_op_hash && sent) {
      await submissions.settleSubmitted(row.id, typeof sent === "object" ? sent.transactionHash : null);
      submitted++;
    } else {
      await submissions.settleNotSent(row.id, "not sent: the API stopped before the bundler accepted it");
      failed++;
    }
  }
  const keys = await parameters.idempotency.settleCutShort();
  // Their rows no longer matter: a missing row means gone just as a stale one does.
  await parameters.instances.forgetGone();
  if (submitted + failed + keys.replayed + keys.released > 0)
    logger.info({ submitted, failed, keys }, "reconciled unfinished submissions");
  return { submitted, failed, keys };
}

async function heldBy(bundler: ReturnType<typeof bundlerRpc> | undefined, hash: Hex) {
  if (!bundler) return false;
  const status = await userOperationStatus(bundler, hash);
  return bundlerHolds(status) ? status : false;
}
