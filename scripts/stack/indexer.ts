// Ponder as a child process: one database schema per deploy, stable views in `viewsSchema`.
import { join } from "node:path";
import { type Child, startNodeChild, stopChild, waitUntil } from "./processes";

const ROOT = join(import.meta.dirname, "../..");
const PONDER = join(ROOT, "node_modules/.bin/ponder");

export type IndexerOptions = {
  port: number;
  databaseUrl: string;
  /** Ponder's own tables; a new chain or a new build needs a new one. */
  schema: string;
  /** Where the stable views that readers use are (re)created once the indexer is ready. */
  viewsSchema: string;
  rpcUrl: string;
  wsUrl?: string;
  deploymentsDir: string;
  logFile: string;
  readyTimeoutMs?: number;
  /** Another Ponder app (the benchmark's bare indexer); default this project. */
  root?: string;
  logLevel?: string;
  /** Told about the process as soon as it exists, before it is ready. */
  onSpawn?: (child: Child) => void;
};

export function spawnIndexer(options: IndexerOptions): Child {
  return startNodeChild(
    "ponder",
    PONDER,
    [
      "--root",
      options.root ?? ROOT,
      "start",
      "--schema",
      options.schema,
      "--views-schema",
      options.viewsSchema,
      "--port",
      String(options.port),
      "--log-format",
      "json",
    ],
    {
      cwd: ROOT,
      logFile: options.logFile,
      env: {
        PONDER_TELEMETRY_DISABLED: "true",
        // Ponder prefers PORT to --port, and PORT is the API's setting: name the indexer's own.
        PORT: String(options.port),
        DATABASE_URL: options.databaseUrl,
        RPC_URL: options.rpcUrl,
        WS_URL: options.wsUrl ?? "",
        DEPLOYMENTS_DIR: options.deploymentsDir,
        PONDER_LOG_LEVEL: options.logLevel ?? process.env.PONDER_LOG_LEVEL ?? "warn",
      },
    },
  );
}

/** The latest block Ponder has indexed, from its /status. */
export async function indexedBlock(indexerUrl: string): Promise<number> {
  const status = (await (await fetch(`${indexerUrl}/status`)).json()) as Record<string, { block: { number: number } }>;
  return Math.min(...Object.values(status).map((chain) => chain.block.number));
}

/**
 * Ponder's /ready turns 200 once the backfill up to the finalized block is done and the views
 * exist; the blocks after it are indexed live a moment later. This waits for both, up to the
 * chain's head at the time of the call.
 */
export async function waitForIndexer(options: {
  indexerUrl: string;
  rpcUrl: string;
  child?: Child;
  timeoutMs?: number;
}) {
  const { indexerUrl, child, timeoutMs = 180_000 } = options;
  await waitUntil("ponder", async () => (await fetch(`${indexerUrl}/ready`)).status === 200, { child, timeoutMs });
  const head = await chainHead(options.rpcUrl);
  await waitUntil("ponder (catching up)", async () => (await indexedBlock(indexerUrl)) >= head, { child, timeoutMs });
}

async function chainHead(rpcUrl: string): Promise<number> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
  });
  return Number(((await response.json()) as { result: string }).result);
}

export async function startIndexer(options: IndexerOptions): Promise<{ child: Child; url: string }> {
  const child = spawnIndexer(options);
  options.onSpawn?.(child);
  const url = `http://127.0.0.1:${options.port}`;
  try {
    await waitForIndexer({ indexerUrl: url, rpcUrl: options.rpcUrl, child, timeoutMs: options.readyTimeoutMs });
  } catch (error) {
    await stopChild(child, 30_000);
    throw error;
  }
  return { child, url };
}
