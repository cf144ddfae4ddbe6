// Starts a throwaway local stack for one test file: free ports, a temporary folder, and the
// machine's PostgreSQL when DATABASE_URL is set (the embedded one otherwise).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startStack, type Stack } from "../../scripts/stack";

export async function startTestStack(options: { blockTimeMs?: number } = {}): Promise<Stack & { dispose: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), "pm-stack-"));
  const stack = await startStack({
    dataDir,
    deploymentsDir: join(dataDir, "deployments"),
    databaseUrl: process.env.DATABASE_URL,
    blockTimeMs: options.blockTimeMs ?? 0,
  });
  return {
    ...stack,
    dispose: async () => {
      await stack.stop();
      if (!process.env.KEEP_STACK_DATA) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
