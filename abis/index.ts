export { AgentRegistryAbi } from "./AgentRegistry";
export { AgentVaultAbi } from "./AgentVault";
export { MarketAbi } from "./Market";
export { MarketFactoryAbi } from "./MarketFactory";
export { TestUSDCAbi } from "./TestUSDC";
export { entryPoint07Abi as EntryPointAbi, entryPoint07Address as ENTRY_POINT_ADDRESS } from "viem/account-abstraction";
