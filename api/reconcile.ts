// On start: settle the writes that a crash may have cut short. A submission still `prepared` was
// recorded but the answer of the bundler never was. If the bundler or the indexer knows its user
// operation, it was sent; otherwise nothing was sent (or the bundler dropped it), and it fails so
// that no record stays pending for ever.
import type { Logger } from "pino";
import type { submissionQueries } from "./db/submissions";

type BundlerStatus = { status: string; transactionHash: string | null } | null;

export async function reconcileSubmissions(options: {
  submissions: ReturnType<typeof submissionQueries>;
  bundlerUrl: string | undefined;
  logger: Logger;
}): Promise<{ submitted: number; failed: number }> {
  const { submissions, logger } = options;
  let submitted = 0;
  let failed = 0;
  for (const row of await submissions.unfinished()) {
    let known: BundlerStatus | boolean = false;
    if (row.user_op_hash) {
      try {
        known = row.indexed || (await bundlerKnows(options.bundlerUrl, row.user_op_hash));
      } catch (error) {
        // The bundler cannot be asked now; the status route fails it once its deadline passes.
        logger.warn({ err: error, id: row.id }, "cannot reconcile a submission now");
        continue;
      }
    }
    if (row.user_op_hash && known) {
      await submissions.submitted(row.id, row.user_op_hash, typeof known === "object" ? known.transactionHash : null, null);
      submitted++;
    } else {
      await submissions.failed(row.id, "not sent: the API stopped before the bundler accepted it");
      failed++;
    }
  }
  if (submitted + failed > 0) logger.info({ submitted, failed }, "reconciled unfinished submissions");
  return { submitted, failed };
}

async function bundlerKnows(bundlerUrl: string | undefined, hash: string): Promise<BundlerStatus | false> {
  if (!bundlerUrl) return false;
  const response = await fetch(bundlerUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "pimlico_getUserOperationStatus", params: [hash] }),
  });
  const status = ((await response.json()) as { result?: BundlerStatus }).result ?? null;
  return status && status.status !== "not_found" && status.status !== "rejected" ? status : false;
}
