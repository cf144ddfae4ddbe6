import { ponder } from "ponder:registry";
import { event, trade } from "ponder:schema";

const EVENTS = [
  "MarketFactory:MarketCreated",
  "Market:Trade",
  "Market:Closed",
  "Market:Resolved",
  "Market:Voided",
  "Market:Claimed",
  "Market:TransferSingle",
  "Market:TransferBatch",
  "EntryPoint:UserOperationEvent",
  "EntryPoint:UserOperationRevertReason",
  "USDC:Transfer",
] as const;

// One row per event: the least work an indexer of these events can do.
for (const name of EVENTS) {
  ponder.on(name, async ({ event: log, context }) => {
    const id = `${log.transaction.hash}-${log.log.logIndex}`;
    if (name === "Market:Trade") await context.db.insert(trade).values({ id });
    else await context.db.insert(event).values({ id, name, contract: log.log.address });
  });
}
