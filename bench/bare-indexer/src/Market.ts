import { ponder } from "ponder:registry";
import { trade } from "ponder:schema";

ponder.on("Market:Trade", async ({ event, context }) => {
  await context.db.insert(trade).values({
    id: `${event.transaction.hash}-${event.log.logIndex}`,
    market: event.log.address,
    trader: event.args.trader,
    usdcAmount: event.args.usdcAmount,
  });
});
