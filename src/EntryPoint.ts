import { ponder } from "ponder:registry";
import { userOperation } from "ponder:schema";

// The EntryPoint emits UserOperationRevertReason before UserOperationEvent for the same
// operation, so either may create the row and the other completes it.
ponder.on("EntryPoint:UserOperationRevertReason", async ({ event, context }) => {
  const { userOpHash, sender, nonce, revertReason } = event.args;
  await context.db
    .insert(userOperation)
    .values({
      hash: userOpHash,
      sender,
      paymaster: "0x0000000000000000000000000000000000000000",
      nonce,
      success: false,
      actualGasCost: 0n,
      actualGasUsed: 0n,
      revertReason,
      txHash: event.transaction.hash,
      blockNumber: event.block.number,
      timestamp: event.block.timestamp,
    })
    .onConflictDoUpdate({ revertReason });
});

ponder.on("EntryPoint:UserOperationEvent", async ({ event, context }) => {
  const { userOpHash, sender, paymaster, nonce, success, actualGasCost, actualGasUsed } = event.args;
  const outcome = { paymaster, success, actualGasCost, actualGasUsed };
  await context.db
    .insert(userOperation)
    .values({
      hash: userOpHash,
      sender,
      nonce,
      ...outcome,
      revertReason: null,
      txHash: event.transaction.hash,
      blockNumber: event.block.number,
      timestamp: event.block.timestamp,
    })
    .onConflictDoUpdate(outcome);
});
