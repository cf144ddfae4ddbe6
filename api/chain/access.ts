// The API's handles on the chain: a public client, the operator's wallet (minter and market
// operator), the queue its transactions are sent through one at a time, and the deployment.
import { createWalletClient, type Hex, http, nonceManager } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { Deployment } from "../../deployments/schema";
import { publicClientFor, testNetwork } from "./chain";
import { oneAtATime } from "./oneAtATime";

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
  return { publicClient, operator, sendAsOperator: oneAtATime(), deployment: options.deployment };
}
