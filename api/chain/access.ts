// The API's handles on the chain: a public client, the operator's wallet (minter and market
// operator, with a nonce manager so concurrent sends do not collide) and the deployment.
import { createWalletClient, http, nonceManager, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { Deployment } from "../../deployments/schema";
import { publicClientFor, testNetwork } from "./chain";

export type ChainAccess = ReturnType<typeof createChainAccess>;

export function createChainAccess(options: { rpcUrl: string; deployment: Deployment; operatorKey?: Hex }) {
  const publicClient = publicClientFor(options.rpcUrl, options.deployment.chainId);
  const operator = options.operatorKey
    ? createWalletClient({
        chain: testNetwork(options.rpcUrl, options.deployment.chainId),
        transport: http(options.rpcUrl),
        account: privateKeyToAccount(options.operatorKey, { nonceManager }),
      })
    : undefined;
  return { publicClient, operator, deployment: options.deployment };
}
