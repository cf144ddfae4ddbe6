// The indexer reads what to watch from deployments/<chainId>.json (written by the deploy step) and
// where from the environment: RPC_URL (comma-separated for several), optional WS_URL.
import { createConfig, factory } from "ponder";
import { getAbiItem } from "viem";
import { AgentRegistryAbi, AgentVaultAbi, EntryPointAbi, MarketAbi, MarketFactoryAbi, TestUSDCAbi } from "./abis";
import { TEST_NETWORK_CHAIN_ID } from "./constants";
import { readDeployment } from "./deployments/schema";

const chainId = Number(process.env.CHAIN_ID ?? TEST_NETWORK_CHAIN_ID);
const deployment = readDeployment(chainId, process.env.DEPLOYMENTS_DIR);
const startBlock = deployment.startBlock;

// Ponder throttles each RPC URL from 20 requests/s upwards; a loopback node takes far more, and
// listing it several times lifts the throttle during backfill.
const LOOPBACK_RPC_COPIES = 8;
const isLoopback = (url: string) => /^https?:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url);
const configuredUrls = (process.env.RPC_URL ?? "http://127.0.0.1:8545").split(",");
const rpcUrls = configuredUrls.flatMap((url) => (isLoopback(url) ? Array(LOOPBACK_RPC_COPIES).fill(url) : [url]));
// Ponder caches RPC data per chain id in the database. Every fresh local chain reuses chain id
// TEST_NETWORK_CHAIN_ID with different blocks, so a cache from an earlier chain would be served as this one's.
const localChain = configuredUrls.every(isLoopback);

export default createConfig({
  database: { kind: "postgres", connectionString: process.env.DATABASE_URL },
  chains: {
    testnet: {
      id: chainId,
      rpc: rpcUrls,
      ws: process.env.WS_URL || undefined,
      pollingInterval: Number(process.env.POLLING_INTERVAL_MS ?? 100),
      disableCache: process.env.PONDER_RPC_CACHE ? process.env.PONDER_RPC_CACHE === "false" : localChain,
    },
  },
  contracts: {
    MarketFactory: {
      chain: "testnet",
      abi: MarketFactoryAbi,
      address: deployment.contracts.marketFactory,
      startBlock,
    },
    Market: {
      chain: "testnet",
      abi: MarketAbi,
      address: factory({
        address: deployment.contracts.marketFactory,
        event: getAbiItem({ abi: MarketFactoryAbi, name: "MarketCreated" }),
        parameter: "market",
      }),
      startBlock,
    },
    AgentRegistry: {
      chain: "testnet",
      abi: AgentRegistryAbi,
      address: deployment.contracts.agentRegistry,
      startBlock,
    },
    AgentVault: {
      chain: "testnet",
      abi: AgentVaultAbi,
      address: factory({
        address: deployment.contracts.agentRegistry,
        event: getAbiItem({ abi: AgentRegistryAbi, name: "AgentRegistered" }),
        parameter: "vault",
      }),
      startBlock,
    },
    EntryPoint: {
      chain: "testnet",
      abi: EntryPointAbi,
      address: deployment.contracts.entryPoint,
      startBlock,
    },
    USDC: {
      chain: "testnet",
      abi: TestUSDCAbi,
      address: deployment.contracts.usdc,
      startBlock,
    },
  },
});
