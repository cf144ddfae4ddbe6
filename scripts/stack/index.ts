// The whole local stack in one call: database, chain, contracts, bundler. Used by `npm start` and
// by the tests, which pass free ports and throwaway folders.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createTestClient, type Hex, http, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { Deployment } from "../../deployments/schema";
import { writeDeployment } from "../../deployments/schema";
import { type AgentsOptions, type RunningAgent, startAgents } from "./agents";
import { startApi } from "./api";
import { startBundler } from "./bundler";
import { CHAIN_ID, startChain } from "./chain";
import { type Database, dropEarlierIndexerSchemas, startDatabase } from "./database";
import { deployContracts } from "./deploy";
import { startIndexer } from "./indexer";
import { localKeys, type Role } from "./keys";
import { localFacilitatorKey, type PaymentChain, startPaymentChain } from "./paymentChain";
import { freePort } from "./ports";
import { type Child, stopChild } from "./processes";

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
  /** The second anvil: the payment network of paid research (chain id 5042002). */
  paymentChainPort?: number;
  bundlerPort?: number;
  databasePort?: number;
  indexerPort?: number;
  apiPort?: number;
  /** Schema of the stable views readers use; default `app`. */
  viewsSchema?: string;
  /** Extra API settings (see api/config.ts), e.g. STREAM_PING_MS; they win over the stack's own. */
  apiEnv?: Record<string, string>;
  /** Keys instead of the test mnemonic's for these roles; the chain funds them. */
  keys?: Partial<Record<Role, Hex>>;
  /** Leave the indexer and the API out (contract-level tests). */
  withoutIndexer?: boolean;
  /**
   * Run the house agents against the API (registered on their first start): runner settings such
   * as AGENTS_TICK_MS, and the port of its metrics (a free one when absent).
   */
  agents?: { env?: Record<string, string>; metricsPort?: number };
  /** Receives the stop function before anything starts, so that an interrupted start-up can stop what it began. */
  onStop?: (stop: () => Promise<void>) => void;
};

export type Stack = {
  rpcUrl: string;
  wsUrl: string;
  /** The payment network of paid research, with its USDC and Multicall3. */
  paymentChain: PaymentChain;
  bundlerUrl: string;
  databaseUrl: string;
  databaseEmbedded: boolean;
  database: Database;
  deployment: Deployment;
  deploymentFile: string;
  /** Ponder's schema for this deploy and the views schema readers use. */
  indexerSchema: string;
  viewsSchema: string;
  indexerUrl?: string;
  apiUrl?: string;
  /** How the API was started, to start it again (tests of crash recovery). */
  apiOptions?: Parameters<typeof startApi>[0];
  /** The house agents' runner: its metrics endpoint and its agents, when asked for. */
  agents?: { metricsUrl: string; running: RunningAgent[]; options: AgentsOptions };
  keys: Record<Role, `0x${string}`>;
  children: Child[];
  /**
   * On automine (blockTimeMs 0), pauses or resumes the empty block that comes every second, for a
   * test that holds blocks back (evm_setAutomine false) and mines them itself.
   */
  pauseHeartbeat: (paused: boolean) => void;
  stop: () => Promise<void>;
};

export async function startStack(options: StackOptions): Promise<Stack> {
  const logDir = join(options.dataDir, "logs");
  mkdirSync(logDir, { recursive: true });
  const keys = { ...localKeys(), ...options.keys };
  const children: Child[] = [];
  // Stopped in reverse order of registration; the database's come first, so that it stops last.
  const stoppers: (() => Promise<void>)[] = [];
  let stopped = false;
  let heartbeatPaused = false;
  const stop = async () => {
    stopped = true;
    for (const stopOne of stoppers.reverse()) await stopOne().catch(() => {});
    stoppers.length = 0;
  };
  options.onStop?.(stop);
  // Every child is stoppable from the moment it exists, so that a failed or interrupted start-up
  // leaves nothing running; one that appears after the stop is stopped at once.
  const track = (child: Child, stopIt = () => stopChild(child), first = false) => {
    children.push(child);
    if (stopped) void stopIt();
    else if (first) stoppers.unshift(stopIt);
    else stoppers.push(stopIt);
  };

  try {
    // Both settle before anything is judged, so that neither is left starting after a stop.
    const [databaseStart, chainStart, paymentChainStart] = await Promise.allSettled([
      freePortUnless(options.databasePort).then((port) =>
        startDatabase({
          url: options.databaseUrl,
          dataDir: join(options.dataDir, "postgres"),
          port,
          logDir,
          // SIGINT is PostgreSQL's fast shutdown; SIGTERM would wait for every client to leave.
          onSpawn: (child) => track(child, () => stopChild(child, 10_000, "SIGINT"), true),
        }),
      ),
      freePortUnless(options.chainPort).then((port) =>
        startChain({ port, logFile: join(logDir, "anvil.log"), onSpawn: (child) => track(child) }),
      ),
      freePortUnless(options.paymentChainPort).then((port) =>
        startPaymentChain({
          port,
          logFile: join(logDir, "anvil-payment.log"),
          minterKey: keys.operator,
          onSpawn: (child) => track(child),
        }),
      ),
    ]);
    if (databaseStart.status === "rejected") throw databaseStart.reason;
    if (chainStart.status === "rejected") throw chainStart.reason;
    if (paymentChainStart.status === "rejected") throw paymentChainStart.reason;
    const { child: _paymentChainChild, ...paymentChain } = paymentChainStart.value;
    const database = databaseStart.value;
    const chain = chainStart.value;

    const testClient = createTestClient({ mode: "anvil", transport: http(chain.rpcUrl) });
    for (const key of Object.values(options.keys ?? {})) {
      await testClient.setBalance({ address: privateKeyToAccount(key).address, value: parseEther("1000000") });
    }
    const deployment = await deployContracts({ rpcUrl: chain.rpcUrl, chainId: CHAIN_ID, keys });
    mkdirSync(options.deploymentsDir, { recursive: true });
    const deploymentFile = writeDeployment(deployment, options.deploymentsDir);

    if (options.blockTimeMs > 0) {
      await testClient.setIntervalMining({ interval: options.blockTimeMs / 1000 });
    } else {
      // Ponder's live sync advances only when a new head arrives; on automine a quiet chain would
      // leave the last blocks unindexed, so an empty block comes every second.
      const heartbeat = setInterval(() => {
        if (!heartbeatPaused) void testClient.mine({ blocks: 1 }).catch(() => {});
      }, 1_000);
      stoppers.push(async () => clearInterval(heartbeat));
    }

    // A new chain needs a new schema: Ponder refuses to move a finalized block backwards.
    const indexerSchema = `pm_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
    const viewsSchema = options.viewsSchema ?? "app";
    // The bundler and the indexer need only the chain and the deployment: they start side by side
    // (a test stack spent their two start-ups one after the other), and both settle before either
    // is judged, so that neither is left starting after a stop.
    const [bundlerStart, indexerStart] = await Promise.allSettled([
      startBundler({
        port: options.bundlerPort ?? (await freePort()),
        rpcUrl: chain.rpcUrl,
        executorKey: keys.bundlerExecutor,
        utilityKey: keys.bundlerUtility,
        blockTimeMs: options.blockTimeMs,
        logFile: join(logDir, "alto.log"),
        onSpawn: (child) => track(child),
      }),
      options.withoutIndexer
        ? undefined
        : (async () => {
            if (database.embedded) await dropEarlierIndexerSchemas(database.url);
            return startIndexer({
              port: options.indexerPort ?? (await freePort()),
              databaseUrl: database.url,
              schema: indexerSchema,
              viewsSchema,
              rpcUrl: chain.rpcUrl,
              wsUrl: chain.wsUrl,
              deploymentsDir: options.deploymentsDir,
              logFile: join(logDir, "ponder.log"),
              onSpawn: (child) => track(child, () => stopChild(child, 30_000)),
            });
          })(),
    ]);
    if (bundlerStart.status === "rejected") throw bundlerStart.reason;
    if (indexerStart.status === "rejected") throw indexerStart.reason;
    const bundler = bundlerStart.value;

    let indexerUrl: string | undefined;
    let apiUrl: string | undefined;
    let apiOptions: Parameters<typeof startApi>[0] | undefined;
    let agents: Stack["agents"];
    if (indexerStart.value) {
      indexerUrl = indexerStart.value.url;

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
        env: {
          PAYMENT_RPC_URL: paymentChain.rpcUrl,
          PAYMENT_PAY_TO: privateKeyToAccount(keys.treasury).address,
          FACILITATOR_PRIVATE_KEY: localFacilitatorKey(),
          ...options.apiEnv,
        },
      };
      // The API drains requests in flight on SIGTERM for up to SHUTDOWN_DRAIN_MS (8 s) and exits within 10 s.
      const api = await startApi({ ...apiOptions, onSpawn: (child) => track(child, () => stopChild(child, 10_000)) });
      apiUrl = api.url;

      if (options.agents) {
        const agentsOptions: AgentsOptions = {
          apiUrl,
          metricsPort: options.agents.metricsPort ?? (await freePort()),
          logFile: join(logDir, "agents.log"),
          jwt: {
            secret: options.apiEnv?.JWT_SECRET,
            issuer: options.apiEnv?.JWT_ISSUER,
            audience: options.apiEnv?.JWT_AUDIENCE,
          },
          env: options.agents.env,
        };
        const started = await startAgents({ ...agentsOptions, onSpawn: (child) => track(child) });
        agents = { metricsUrl: started.metricsUrl, running: started.agents, options: agentsOptions };
      }
    }

    return {
      rpcUrl: chain.rpcUrl,
      wsUrl: chain.wsUrl,
      paymentChain,
      bundlerUrl: bundler.bundlerUrl,
      databaseUrl: database.url,
      databaseEmbedded: database.embedded !== undefined,
      database,
      deployment,
      deploymentFile,
      indexerSchema,
      viewsSchema,
      indexerUrl,
      apiUrl,
      apiOptions,
      agents,
      keys,
      children,
      pauseHeartbeat: (paused) => {
        heartbeatPaused = paused;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function freePortUnless(port: number | undefined): Promise<number> {
  return port === undefined ? freePort() : Promise.resolve(port);
}
