// deployments/<chainId>.json: written by the deploy step, read by the indexer, the API and tests.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Address } from "viem";

export type Deployment = {
  chainId: number;
  /** The first block worth indexing: the block before the deployment began. */
  startBlock: number;
  contracts: {
    entryPoint: Address;
    simpleAccountFactory: Address;
    verifyingPaymaster: Address;
    usdc: Address;
    marketFactory: Address;
    agentRegistry: Address;
  };
  roles: { operator: Address; paymasterSigner: Address; treasury: Address };
  markets: { slug: string; address: Address }[];
};

export const deploymentPath = (chainId: number, dir = import.meta.dirname) => join(dir, `${chainId}.json`);

export function readDeployment(chainId: number, dir?: string): Deployment {
  return JSON.parse(readFileSync(deploymentPath(chainId, dir), "utf8"));
}

export function writeDeployment(deployment: Deployment, dir?: string): string {
  const path = deploymentPath(deployment.chainId, dir);
  writeFileSync(path, `${JSON.stringify(deployment, null, 2)}\n`);
  return path;
}
