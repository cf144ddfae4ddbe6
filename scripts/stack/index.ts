// The whole local stack in one call: database, chain, contracts, bundler. Used by `npm start` and
// by the tests, which pass free ports and throwaway folders.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createTestClient, http } from "viem";
import type { Deployment } from "../../deployments/schema";
import { writeDeployment } from "../../deployments/schema";
import { startApi } from "./api";
import { startBundler } from "./bundler";
import { startIndexer } from "./indexer";
import { CHAIN_ID, startChain } from "./chain";
import { dropEarlierIndexerSchemas, startDatabase } from "./database";
import { deployContracts } from "./deploy";
import { localKeys, type Role } from "./keys";
import { freePort } from "./ports";
import { stopChild, type Child } from "./processes";

export type StackOptions = {
  /** Folder for logs and, with the embedded database, its data. */
  dataDir: string;
  /** Where deployments/<chainId>.json is written. */
  deploymentsDir: string;
  /** Use this database instead of starting the embedded one. */
  databaseUrl?: string;
  /**
   * 0 keeps anvil on automine (with an empty block every second so the indexer's live sync keeps
   * moving); otherwise blocks every this many milliseconds after set-up.
   */
  blockTimeMs: number;
  chainPort?: number;
  bundlerPort?: number;
  databasePort?: number;
  indexerPort?: number;
  apiPort?: number;
  /** Schema of the stable views readers use; default `app`. */
  viewsSchema?: string;
  /** Extra API settings (see api/config.ts), e.g. STREAM_PING_MS. */
  apiEnv?: Record<string, string>;
  /** Leave the indexer and the API out (contract-level tests). */
  withoutIndexer?: boolean;
  /** Receives the stop function before anything starts, so that an interrupted start-up can stop what it began. */
  onStop?: (stop: () => Promise<void>) => void;
};

export type Stack = {
  rpcUrl: string;
  wsUrl: string;
  bundlerUrl: string;
  databaseUrl: string;
  databaseEmbedded: boolean;
  deployment: Deployment;
  deploymentFile: string;
  /** Ponder's schema for this deploy and the views schema readers use. */
  indexerSchema: string;
  viewsSchema: string;
  indexerUrl?: string;
  apiUrl?: string;
  /** How the API was started, to start it again (tests of crash recovery). */
  apiOptions?: Parameters<typeof startApi>[0];
  keys: Record<Role, `0x${string}`>;
  children: Child[];
  stop: () => Promise<void>;
};

export async function startStack(options: StackOptions): Promise<Stack> {
  const logDir = join(options.dataDir, "logs");
  mkdirSync(logDir, { recursive: true });
  const keys = localKeys();
  const children: Child[] = [];
  const stoppers: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const stopOne of stoppers.reverse()) await stopOne().catch(() => {});
    stoppers.length = 0;
  };
  options.onStop?.(stop);
  // Every child is stoppable from the moment it exists, so that a failed or interrupted start-up
  // leaves nothing running.
  const track = (child: Child, graceMs?: number) => {
    children.push(child);
    stoppers.push(() => stopChild(child, graceMs));
  };

  try {
    const [database, chain] = await Promise.all([
      startDatabase({
        url: options.databaseUrl,
        dataDir: join(options.dataDir, "postgres"),
        port: options.databasePort ?? (await freePort()),
      }),
      startChain({ port: options.chainPort ?? (await freePort()), logFile: join(logDir, "anvil.log"), onSpawn: (child) => track(child) }),
    ]);
    stoppers.unshift(database.stop);

    const deployment = await deployContracts({ rpcUrl: chain.rpcUrl, chainId: CHAIN_ID, keys });
    mkdirSync(options.deploymentsDir, { recursive: true });
    const deploymentFile = writeDeployment(deployment, options.deploymentsDir);

    const bundler = await startBundler({
      port: options.bundlerPort ?? (await freePort()),
      rpcUrl: chain.rpcUrl,
      executorKey: keys.bundlerExecutor,
      utilityKey: keys.bundlerUtility,
      blockTimeMs: options.blockTimeMs,
      logFile: join(logDir, "alto.log"),
      onSpawn: (child) => track(child),
    });

    const testClient = createTestClient({ mode: "anvil", transport: http(chain.rpcUrl) });
    if (options.blockTimeMs > 0) {
      await testClient.setIntervalMining({ interval: options.blockTimeMs / 1000 });
    } else {
      // Ponder's live sync advances only when a new head arrives; on automine a quiet chain would
      // leave the last blocks unindexed, so an empty block comes every second.
      const heartbeat = setInterval(() => void testClient.mine({ blocks: 1 }).catch(() => {}), 1_000);
      stoppers.push(async () => clearInterval(heartbeat));
    }

    // A new chain needs a new schema: Ponder refuses to move a finalized block backwards.
    const indexerSchema = `pm_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
    const viewsSchema = options.viewsSchema ?? "app";
    let indexerUrl: string | undefined;
    let apiUrl: string | undefined;
    let apiOptions: Parameters<typeof startApi>[0] | undefined;
    if (!options.withoutIndexer) {
      if (database.embedded) await dropEarlierIndexerSchemas(database.url);
      const indexer = await startIndexer({
        port: options.indexerPort ?? (await freePort()),
        databaseUrl: database.url,
        schema: indexerSchema,
        viewsSchema,
        rpcUrl: chain.rpcUrl,
        wsUrl: chain.wsUrl,
        deploymentsDir: options.deploymentsDir,
        logFile: join(logDir, "ponder.log"),
        onSpawn: (child) => track(child, 30_000),
      });
      indexerUrl = indexer.url;

      apiOptions = {
        port: options.apiPort ?? (await freePort()),
        databaseUrl: database.url,
        viewsSchema,
        indexerUrl,
        chainId: CHAIN_ID,
        rpcUrl: chain.rpcUrl,
        deploymentsDir: options.deploymentsDir,
        operatorKey: keys.operator,
        bundlerUrl: bundler.bundlerUrl,
        paymasterSignerKey: keys.paymasterSigner,
        logFile: join(logDir, "api.log"),
        env: options.apiEnv,
      };
      const api = await startApi({ ...apiOptions, onSpawn: (child) => track(child) });
      apiUrl = api.url;
    }

    return {
      rpcUrl: chain.rpcUrl,
      wsUrl: chain.wsUrl,
      bundlerUrl: bundler.bundlerUrl,
      databaseUrl: database.url,
      databaseEmbedded: database.embedded,
      deployment,
      deploymentFile,
      indexerSchema,
      viewsSchema,
      indexerUrl,
      apiUrl,
      apiOptions,
      keys,
      children,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
