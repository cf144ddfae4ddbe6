// The framework's limit for the indexer benchmark: the same chain and the same events as the real
// indexer, each written as one row and nothing else.
import { createConfig, factory } from "ponder";
import { getAbiItem } from "viem";
import { EntryPointAbi, MarketAbi, MarketFactoryAbi, TestUSDCAbi } from "../../abis";
import { readDeployment } from "../../deployments/schema";

const deployment = readDeployment(Number(process.env.CHAIN_ID ?? 2010111), process.env.DEPLOYMENTS_DIR);
const rpcUrl = process.env.RPC_URL ?? "http://127.0.0.1:8545";
const startBlock = deployment.startBlock;

export default createConfig({
  database: { kind: "postgres", connectionString: process.env.DATABASE_URL },
  chains: { testnet: { id: deployment.chainId, rpc: Array(8).fill(rpcUrl), pollingInterval: 100, disableCache: true } },
  contracts: {
    MarketFactory: { chain: "testnet", abi: MarketFactoryAbi, address: deployment.contracts.marketFactory, startBlock },
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
    EntryPoint: { chain: "testnet", abi: EntryPointAbi, address: deployment.contracts.entryPoint, startBlock },
    USDC: { chain: "testnet", abi: TestUSDCAbi, address: deployment.contracts.usdc, startBlock },
  },
});
