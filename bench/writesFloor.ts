// The floor under the writes table: what the bundler alone sustains for the same buys, with no API,
// no estimation and no indexer. Each user's next operation is built and signed (gas limits fixed in
// advance, sponsorship signed as the API signs it) while its previous one is in flight; it goes
// straight to Alto with eth_sendUserOperation the moment the previous one is in a block. One
// watcher of the EntryPoint's UserOperationEvent logs (the content of a user operation receipt)
// sees every inclusion, so the floor pays no polling of its own.
import { type Address, createPublicClient, type Hex, type PublicClient, parseEventLogs, webSocket } from "viem";
import {
  entryPoint07Address,
  formatUserOperationRequest,
  getUserOperationHash,
  type UserOperation,
} from "viem/account-abstraction";
import { EntryPointAbi } from "../abis";
import { createChainAccess } from "../api/chain/access";
import { bundlerRpc, sponsoredBundlerClient, userOperationGasPrice } from "../api/chain/bundler";
import { buyCalls } from "../api/chain/market";
import { verifyingPaymaster } from "../api/chain/paymaster";
import { paddedCallGasLimit, randomNonceKey } from "../api/chain/sendUserOperation";
import { type SimpleAccount, simpleAccount } from "../api/chain/smartAccount";
import type { Stack } from "../scripts/stack";

export type FloorParameters = {
  stack: Stack;
  /** Owner keys of accounts that are deployed, hold USDC and have approved the market. */
  ownerKeys: Hex[];
  market: Address;
  seconds: number;
};

/** Buys confirmed per second by the bundler alone, `ownerKeys.length` accounts each one buy at a time. */
export async function sustainedFloor(parameters: FloorParameters): Promise<number> {
  const { stack, market } = parameters;
  const chain = createChainAccess({ rpcUrl: stack.rpcUrl, deployment: stack.deployment });
  const { chainId } = stack.deployment;
  const bundler = bundlerRpc(stack.bundlerUrl);
  const paymaster = verifyingPaymaster({
    address: stack.deployment.contracts.verifyingPaymaster,
    signerKey: stack.keys.paymasterSigner,
    chainId,
  });
  const accounts = await Promise.all(parameters.ownerKeys.map((key) => simpleAccount(chain.publicClient, key)));
  const calls = await buyCalls(chain, {
    owner: accounts[0]!.address,
    market,
    outcome: 0,
    usdcUnits: 1_000_000n,
    minTokensOut: 0n,
  });
  const limits = await knownLimits(accounts[0]!, stack.bundlerUrl, paymaster, calls);
  const fees = await userOperationGasPrice(bundler);

  const signed = async (account: SimpleAccount) => {
    const prepared = {
      sender: account.address,
      nonce: randomNonceKey() << 64n,
      callData: await account.encodeCalls(calls),
      ...fees,
      ...limits,
    };
    const sponsorship = await paymaster.getPaymasterData({
      ...prepared,
      chainId,
      entryPointAddress: entryPoint07Address,
    } as Parameters<typeof paymaster.getPaymasterData>[0]);
    const operation = { ...prepared, ...sponsorship } as UserOperation<"0.7">;
    const signature = await account.signUserOperation(operation);
    const userOperation = { ...operation, signature };
    const hash = getUserOperationHash({
      userOperation,
      entryPointAddress: entryPoint07Address,
      entryPointVersion: "0.7",
      chainId,
    });
    return { hash, rpc: formatUserOperationRequest(userOperation) };
  };

  const included = inclusionWatcher(stack.wsUrl);
  try {
    const deadline = performance.now() + parameters.seconds * 1000;
    let confirmed = 0;
    let dropped = 0;
    await Promise.all(
      accounts.map(async (account) => {
        let next = signed(account);
        while (performance.now() < deadline) {
          const { hash, rpc } = await next;
          const inclusion = included.of(hash);
          await bundler.request({
            method: "eth_sendUserOperation" as never,
            params: [rpc, entryPoint07Address] as never,
          });
          next = signed(account);
          // An operation the bundler drops (its bundle's simulation failed) is never included.
          if (await Promise.race([inclusion, sleep(INCLUSION_TIMEOUT_MS).then(() => false)])) confirmed++;
          else dropped++;
        }
      }),
    );
    if (dropped > 0) console.log(`writes floor: ${dropped} operations not included within ${INCLUSION_TIMEOUT_MS} ms`);
    return confirmed / parameters.seconds;
  } finally {
    included.stop();
  }
}

const INCLUSION_TIMEOUT_MS = 10_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The limits of the buy, estimated once before the clock starts, padded as the API pads them. */
async function knownLimits(
  account: SimpleAccount,
  bundlerUrl: string,
  paymaster: ReturnType<typeof verifyingPaymaster>,
  calls: Awaited<ReturnType<typeof buyCalls>>,
) {
  const client = sponsoredBundlerClient({
    publicClient: account.client as PublicClient,
    account,
    bundlerUrl,
    paymaster,
  });
  const estimate = await client.prepareUserOperation({ calls });
  return {
    callGasLimit: paddedCallGasLimit(estimate.callGasLimit),
    verificationGasLimit: estimate.verificationGasLimit,
    preVerificationGas: estimate.preVerificationGas,
    paymasterVerificationGasLimit: estimate.paymasterVerificationGasLimit ?? 0n,
    paymasterPostOpGasLimit: 0n,
  };
}

/** One subscription to the EntryPoint's UserOperationEvent logs; `of(hash)` resolves with its success. */
function inclusionWatcher(wsUrl: string) {
  const waiting = new Map<Hex, (success: boolean) => void>();
  const seen = new Map<Hex, boolean>();
  const transport = webSocket(wsUrl);
  const client = createPublicClient({ transport });
  const unwatch = client.watchContractEvent({
    address: entryPoint07Address,
    abi: EntryPointAbi,
    eventName: "UserOperationEvent",
    onLogs: (logs) => {
      for (const log of parseEventLogs({ abi: EntryPointAbi, logs, eventName: "UserOperationEvent" })) {
        const { userOpHash, success } = log.args;
        const resolve = waiting.get(userOpHash);
        if (resolve) {
          waiting.delete(userOpHash);
          resolve(success);
        } else seen.set(userOpHash, success);
      }
    },
  });
  return {
    of: (hash: Hex) =>
      new Promise<boolean>((resolve) => {
        const success = seen.get(hash);
        if (success === undefined) waiting.set(hash, resolve);
        else resolve(success);
      }),
    stop: () => {
      unwatch();
      void transport({})
        .value?.getRpcClient()
        .then((rpc) => rpc.close());
    },
  };
}
