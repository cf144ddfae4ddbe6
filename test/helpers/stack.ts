// Starts a throwaway local stack for one test file: free ports, a temporary folder, and the
// machine's PostgreSQL when DATABASE_URL is set (the embedded one otherwise).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { type Stack, type StackOptions, startStack } from "../../scripts/stack";

export type TestStack = Stack & {
  dataDir: string;
  /** Schemas a test created besides the stack's own, dropped with it. */
  extraSchemas: string[];
  dispose: () => Promise<void>;
};

/** Leaves a shared database (CI's) as it was found. */
async function dropSchemas(databaseUrl: string, schemas: string[]) {
  const client = new pg.Client(databaseUrl);
  await client.connect();
  try {
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

export async function startTestStack(
  options: {
    blockTimeMs?: number;
    withoutIndexer?: boolean;
    apiEnv?: Record<string, string>;
    /** An embedded PostgreSQL of the stack's own even when DATABASE_URL is set (to stop and start it). */
    embeddedDatabase?: boolean;
    /** Run the house agents, with these runner settings. */
    agents?: StackOptions["agents"];
  } = {},
): Promise<TestStack> {
  const dataDir = mkdtempSync(join(tmpdir(), "pm-stack-"));
  const stack = await startStack({
    dataDir,
    deploymentsDir: join(dataDir, "deployments"),
    databaseUrl: options.embeddedDatabase ? undefined : process.env.DATABASE_URL,
    blockTimeMs: options.blockTimeMs ?? 0,
    withoutIndexer: options.withoutIndexer,
    apiEnv: options.apiEnv,
    agents: options.agents,
    // Each test stack gets views of its own, so that stacks on a shared database never collide.
    viewsSchema: `app_${Math.random().toString(36).slice(2, 10)}`,
  });
  const extraSchemas: string[] = [];
  return {
    ...stack,
    dataDir,
    extraSchemas,
    dispose: async () => {
      const schemas = [stack.indexerSchema, stack.viewsSchema, ...extraSchemas];
      await stack.stop();
      if (!stack.databaseEmbedded) await dropSchemas(stack.databaseUrl, schemas);
      if (!process.env.KEEP_STACK_DATA) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
