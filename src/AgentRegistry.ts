import { ponder } from "ponder:registry";
import { agent, agentVault } from "ponder:schema";

ponder.on("AgentRegistry:AgentRegistered", async ({ event, context }) => {
  const { manager, vault, name, persona, strategy, house, feeBps, lockupSeconds } = event.args;
  await context.db.insert(agent).values({
    manager,
    vault,
    name,
    persona,
    strategy,
    house,
    active: true,
    feeBps: Number(feeBps),
    lockupSeconds,
    totalShares: 0n,
    bonded: 0n,
    unbonded: 0n,
    feesPaid: 0n,
    createdAt: event.block.timestamp,
    createdBlock: event.block.number,
    txHash: event.transaction.hash,
  });
  await context.db.insert(agentVault).values({ vault, manager });
});

ponder.on("AgentRegistry:AgentStatusChanged", async ({ event, context }) => {
  await context.db.update(agent, { manager: event.args.manager }).set({ active: event.args.active });
});
