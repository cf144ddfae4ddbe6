import { createPublicClient, defineChain, http, type PublicClient } from "viem";
import { TEST_NETWORK_CHAIN_ID } from "../../constants";

export function testNetwork(rpcUrl: string, chainId = TEST_NETWORK_CHAIN_ID) {
  return defineChain({
    id: chainId,
    name: "Prediction Market Test Network",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

export function publicClientFor(rpcUrl: string, chainId = TEST_NETWORK_CHAIN_ID): PublicClient {
  return createPublicClient({ chain: testNetwork(rpcUrl, chainId), transport: http(rpcUrl), pollingInterval: 100 });
}
