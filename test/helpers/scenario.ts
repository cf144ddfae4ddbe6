// Reproducible sessions: random buys and sells by many traders across markets, packed several to a
// block, as a busy market would see them; an agent's vault with its stakers.

import { type Address, encodeFunctionData, keccak256, maxUint256, type PublicClient, toBytes } from "viem";
import { AgentRegistryAbi, AgentVaultAbi, MarketAbi, TestUSDCAbi } from "../../abis";
import { toUsdcUnits } from "../../constants";
import type { Deployment } from "../../deployments/schema";
import { type ChainDriver, prng, type Tx } from "./chain";

export async function tradeRandomly(options: {
  driver: ChainDriver;
  chain: PublicClient;
  traders: Address[];
  markets: { address: Address; outcomes: number }[];
  trades: number;
  perBlock: number;
  seed: number;
}): Promise<number> {
  const { driver, chain, traders, markets } = options;
  const random = prng(options.seed);
  let succeeded = 0;
  while (succeeded < options.trades) {
    const batch = [];
    for (let i = 0; i < options.perBlock; i++) {
      const trader = random.pick(traders);
      const market = random.pick(markets);
      const outcome = random.int(market.outcomes);
      if (random.next() < 0.3) {
        const held = (await chain.readContract({
          address: market.address,
          abi: MarketAbi,
          functionName: "balanceOf",
          args: [trader, BigInt(outcome)],
        })) as bigint;
        // Several sells of the same holding may land in one block; the later ones may revert.
        if (held > 0n) batch.push(driver.sell(trader, market.address, outcome, held / BigInt(2 + random.int(3)) + 1n));
        continue;
      }
      batch.push(
        driver.buy(trader, market.address, outcome, toUsdcUnits(1 + random.int(40)) + BigInt(random.int(1e6))),
      );
    }
    const results = await driver.mineBlock(batch);
    succeeded += results.filter((r) => r.ok).length;
  }
  return succeeded;
}

export const traderAddresses = (count: number, offset = 0): Address[] =>
  Array.from({ length: count }, (_, i) => `0x${(0xa11ce000 + offset + i).toString(16).padStart(40, "0")}` as Address);

export type AgentMarket = { address: Address; slug: string; outcomes: number };

// Vault calls visit every open position (an unbond sells in each market), beyond TX_GAS.
const VAULT_GAS = "0x2dc6c0";

/** The operator registers `manager` as an agent (not a house agent), with no lockup. */
export const registerAgentTx = (deployment: Deployment, manager: Address, name: string, feeBps: number): Tx => ({
  from: deployment.roles.operator,
  to: deployment.contracts.agentRegistry,
  data: encodeFunctionData({
    abi: AgentRegistryAbi,
    functionName: "register",
    args: [manager, name, "A test agent", "Random trades", false, BigInt(feeBps), 0n],
  }),
  gas: VAULT_GAS,
});

export const vaultAddressOf = (chain: PublicClient, deployment: Deployment, manager: Address) =>
  chain.readContract({
    address: deployment.contracts.agentRegistry,
    abi: AgentRegistryAbi,
    functionName: "vaultAddress",
    args: [manager],
  });

/**
 * An agent's life on chain, sent directly rather than through the bundler: the operator registers
 * `manager` (an unlocked account standing in for the agent's smart account), which then trades from
 * its vault; one staker bonds 100 USDC before the trades and another 300 USDC midway (buying into the
 * vault's positions), the first unbonds half while every market still trades (the vault sells its
 * part), `settle` runs (e.g. a resolve, whose tokens an unbond claims, or a close, whose tokens go
 * to the staker in kind), both unbond again and the agent is deactivated.
 */
export async function agentSession(options: {
  driver: ChainDriver;
  chain: PublicClient;
  deployment: Deployment;
  manager: Address;
  stakers: [Address, Address];
  markets: AgentMarket[];
  trades: number;
  seed: number;
  feeBps: number;
  settle?: () => Promise<void>;
}): Promise<{ vault: Address; bondIds: bigint[] }> {
  const { driver, chain, deployment, manager, stakers, markets } = options;
  const random = prng(options.seed);
  const mine = async (txs: Tx[]) => {
    const results = await driver.mineBlock(txs);
    if (results.some((r) => !r.ok))
      throw new Error(`agent session: a transaction reverted (${JSON.stringify(results)})`);
  };
  await driver.fundTraders([manager, ...stakers], toUsdcUnits(1_000), []);
  const vault = await vaultAddressOf(chain, deployment, manager);
  const vaultTx = (from: Address, functionName: string, args: unknown[]): Tx => ({
    from,
    to: vault,
    data: encodeFunctionData({ abi: AgentVaultAbi, functionName: functionName as never, args: args as never }),
    gas: VAULT_GAS,
  });
  const approvals = stakers.map((staker) => ({
    from: staker,
    to: deployment.contracts.usdc,
    data: encodeFunctionData({ abi: TestUSDCAbi, functionName: "approve", args: [vault, maxUint256] }),
  }));
  await mine([registerAgentTx(deployment, manager, `Agent ${options.seed}`, options.feeBps), ...approvals]);

  const bondIds: bigint[] = [];
  const bond = async (staker: Address, usdc: number) => {
    await mine([vaultTx(staker, "bond", [toUsdcUnits(usdc)])]);
    bondIds.push(
      await chain.readContract({
        address: deployment.contracts.agentRegistry,
        abi: AgentRegistryAbi,
        functionName: "bondCount",
      }),
    );
  };
  // Two vault trades a block; each sells at most half of what the vault held before the block.
  const trade = async (count: number) => {
    for (let done = 0; done < count; done += 2) {
      const txs: Tx[] = [];
      for (let i = 0; i < 2; i++) {
        const market = random.pick(markets);
        const marketId = keccak256(toBytes(market.slug));
        const outcome = BigInt(random.int(market.outcomes));
        const held = await chain.readContract({
          address: market.address,
          abi: MarketAbi,
          functionName: "balanceOf",
          args: [vault, outcome],
        });
        const spend = toUsdcUnits(2 + random.int(20));
        // A later bond buys into the positions and adds little cash: a buy needs what the vault holds.
        const cash = await chain.readContract({
          address: deployment.contracts.usdc,
          abi: TestUSDCAbi,
          functionName: "balanceOf",
          args: [vault],
        });
        if (held > 1n && (random.next() < 0.4 || spend * 2n > cash))
          txs.push(vaultTx(manager, "sell", [marketId, outcome, held / 2n, 0n]));
        else if (spend * 2n <= cash) txs.push(vaultTx(manager, "buy", [marketId, outcome, spend, 0n]));
      }
      if (txs.length > 0) await mine(txs);
    }
  };
  const sharesOf = async (bondId: bigint) =>
    (await chain.readContract({ address: vault, abi: AgentVaultAbi, functionName: "bonds", args: [bondId] }))[2];
  const [first, second] = stakers;

  await bond(first, 100);
  await trade(options.trades / 2);
  await bond(second, 300);
  await trade(options.trades / 2);
  await mine([vaultTx(first, "unbond", [bondIds[0], (await sharesOf(bondIds[0]!)) / 2n])]);
  await options.settle?.();
  await mine([
    vaultTx(first, "unbond", [bondIds[0], await sharesOf(bondIds[0]!)]),
    vaultTx(second, "unbond", [bondIds[1], ((await sharesOf(bondIds[1]!)) * 2n) / 3n]),
    {
      from: deployment.roles.operator,
      to: deployment.contracts.agentRegistry,
      data: encodeFunctionData({ abi: AgentRegistryAbi, functionName: "setActive", args: [manager, false] }),
    },
  ]);
  return { vault, bondIds };
}
