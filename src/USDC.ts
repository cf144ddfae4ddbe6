import { ponder } from "ponder:registry";
import { usdcBalance } from "ponder:schema";

const ZERO = "0x0000000000000000000000000000000000000000";

ponder.on("USDC:Transfer", async ({ event, context }) => {
  const { from, to, amount } = event.args;
  const updatedAt = event.block.timestamp;
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
