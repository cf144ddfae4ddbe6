import { ponder } from "ponder:registry";
import { usdcBalance, usdcTransfer } from "ponder:schema";
import { userOpHashFor } from "./lib/userOperations";

const ZERO = "0x0000000000000000000000000000000000000000";

ponder.on("USDC:Transfer", async ({ event, context }) => {
  const { from, to, amount } = event.args;
  const updatedAt = event.block.timestamp;
  await context.db.insert(usdcTransfer).values({
    id: `${event.transaction.hash}-${event.log.logIndex}`,
    from,
    to,
    amount,
    txHash: event.transaction.hash,
    logIndex: event.log.logIndex,
    blockNumber: event.block.number,
    timestamp: updatedAt,
    // A smart account moving its own USDC is the sender of the user operation that did it.
    userOpHash: userOpHashFor(event.transaction, from, context.contracts.EntryPoint.address, context.chain.id),
  });
  if (from !== ZERO) {
    await context.db.update(usdcBalance, { holder: from }).set((row) => ({ amount: row.amount - amount, updatedAt }));
  }
  if (to !== ZERO) {
    await context.db
      .insert(usdcBalance)
      .values({ holder: to, amount, updatedAt })
      .onConflictDoUpdate((row) => ({ amount: row.amount + amount, updatedAt }));
  }
});
