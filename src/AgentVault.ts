import { ponder } from "ponder:registry";
import { agent, agentVault, bond, unbond } from "ponder:schema";
import { userOpHashFor } from "./lib/userOperations";

// Bonds and unbonds are the staker's own calls, so the staker is the user operation's sender.

ponder.on("AgentVault:Bonded", async ({ event, context }) => {
  const { bondId, staker, amount, shares, totalShares } = event.args;
  const vault = event.log.address;
  const { manager } = (await context.db.find(agentVault, { vault }))!;
  await context.db.insert(bond).values({
    id: bondId,
    vault,
    agent: manager,
    staker,
    amount,
    principal: amount,
    shares,
    highWater: amount,
    paidOut: 0n,
    feesPaid: 0n,
    bondedAt: event.block.timestamp,
    blockNumber: event.block.number,
    txHash: event.transaction.hash,
    userOpHash: userOpHashFor(event.transaction, staker, context.contracts.EntryPoint.address, context.chain.id),
    updatedAt: event.block.timestamp,
  });
  await context.db.update(agent, { manager }).set((row) => ({ totalShares, bonded: row.bonded + amount }));
});

ponder.on("AgentVault:Unbonded", async ({ event, context }) => {
  const { bondId, staker, shares, usdcPaid, fee, sharesLeft, principalLeft, highWaterLeft, totalShares } = event.args;
  const vault = event.log.address;
  const timestamp = event.block.timestamp;
  const held = await context.db.update(bond, { id: bondId }).set((row) => ({
    shares: sharesLeft,
    principal: principalLeft,
    highWater: highWaterLeft,
    paidOut: row.paidOut + usdcPaid,
    feesPaid: row.feesPaid + fee,
    updatedAt: timestamp,
  }));
  await context.db.insert(unbond).values({
    id: `${event.transaction.hash}-${event.log.logIndex}`,
    bondId,
    vault,
    staker,
    shares,
    usdcPaid,
    fee,
    blockNumber: event.block.number,
    timestamp,
    txHash: event.transaction.hash,
    userOpHash: userOpHashFor(event.transaction, staker, context.contracts.EntryPoint.address, context.chain.id),
  });
  await context.db.update(agent, { manager: held.agent }).set((row) => ({
    totalShares,
    unbonded: row.unbonded + usdcPaid,
    feesPaid: row.feesPaid + fee,
  }));
});
