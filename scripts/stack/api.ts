// The API service as a child process of the local stack.
import { join } from "node:path";
import { LOCAL_JWT_AUDIENCE, LOCAL_JWT_ISSUER, LOCAL_JWT_SECRET, LOCAL_WALLET_MASTER_KEY } from "./keys";
import { type Child, startTypeScriptChild, stopChild, waitUntil } from "./processes";

const ROOT = join(import.meta.dirname, "../..");

export async function startApi(options: {
  port: number;
  databaseUrl: string;
  viewsSchema: string;
  indexerUrl?: string;
  chainId: number;
  rpcUrl?: string;
  deploymentsDir?: string;
  operatorKey?: string;
  bundlerUrl?: string;
  paymasterSignerKey?: string;
  logFile: string;
  /** Extra settings (see api/config.ts), e.g. READ_CACHE_TTL_MS; they win over the local defaults above. */
  env?: Record<string, string>;
  /** Told about the process as soon as it exists, before it is ready. */
  onSpawn?: (child: Child) => void;
}): Promise<{ child: Child; url: string }> {
  const child = startTypeScriptChild("api", join(ROOT, "api/server.ts"), {
    cwd: ROOT,
    logFile: options.logFile,
    env: {
      PORT: String(options.port),
      DATABASE_URL: options.databaseUrl,
      VIEWS_SCHEMA: options.viewsSchema,
      INDEXER_URL: options.indexerUrl ?? "",
      CHAIN_ID: String(options.chainId),
      LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
      RPC_URL: options.rpcUrl ?? "",
      DEPLOYMENTS_DIR: options.deploymentsDir ?? "",
      OPERATOR_PRIVATE_KEY: options.operatorKey ?? "",
      BUNDLER_URL: options.bundlerUrl ?? "",
      PAYMASTER_SIGNER_KEY: options.paymasterSignerKey ?? "",
      JWT_SECRET: LOCAL_JWT_SECRET,
      JWT_ISSUER: LOCAL_JWT_ISSUER,
      JWT_AUDIENCE: LOCAL_JWT_AUDIENCE,
      WALLET_MASTER_KEY: LOCAL_WALLET_MASTER_KEY,
      ...options.env,
    },
  });
  options.onSpawn?.(child);
  // A wildcard address listens on loopback too; any other HOST is where the API answers.
  const host = options.env?.HOST && !["0.0.0.0", "::"].includes(options.env.HOST) ? options.env.HOST : "127.0.0.1";
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${options.port}`;
  try {
    await waitUntil("api", async () => (await fetch(`${url}/health`)).ok, { child, timeoutMs: 60_000 });
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return { child, url };
}
