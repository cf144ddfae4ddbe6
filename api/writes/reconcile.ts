// On start: settle the writes that a crash may have cut short. A submission still `prepared` was
// recorded but the answer of the bundler never was. If the indexer or the bundler knows its user
// operation, it was sent; otherwise nothing was sent (or the bundler dropped it), and it fails so
// that no record stays pending for ever.

import type { Logger } from "pino";
import type { Hex } from "viem";
import { bundlerHolds, bundlerRpc, type UserOperationStatus, userOperationStatus } from "../chain/bundler";
import type { submissionQueries } from "../db/submissions";

export type ReconcileSubmissionsParameters = {
  submissions: ReturnType<typeof submissionQueries>;
  bundlerUrl: string | undefined;
  logger: Logger;
};

export type ReconcileSubmissionsReturnType = { submitted: number; failed: number };

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
      await submissions.submitted(
        row.id,
        row.user_op_hash,
        typeof sent === "object" ? sent.transactionHash : null,
        null,
      );
      submitted++;
    } else {
      await submissions.failed(row.id, "not sent: the API stopped before the bundler accepted it");
      failed++;
    }
  }
  if (submitted + failed > 0) logger.info({ submitted, failed }, "reconciled unfinished submissions");
  return { submitted, failed };
}

async function heldBy(bundler: ReturnType<typeof bundlerRpc> | undefined, hash: Hex) {
  if (!bundler) return false;
  const status = await userOperationStatus(bundler, hash);
  return bundlerHolds(status) ? status : false;
}
