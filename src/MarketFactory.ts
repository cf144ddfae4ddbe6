import { ponder } from "ponder:registry";
import { market } from "ponder:schema";
import { uniformPricesWad, wadToNumber } from "./lib/prices";

ponder.on("MarketFactory:MarketCreated", async ({ event, context }) => {
  const { id, market: address, slug, title, description, outcomes, closesAt, b, feeBps, subsidy } = event.args;
  const pricesWad = uniformPricesWad(outcomes.length);
  await context.db.insert(market).values({
    address,
    id,
    slug,
    title,
    description,
    outcomes: [...outcomes],
    status: "active",
    prices: pricesWad.map(wadToNumber),
    pricesWad,
    quantities: outcomes.map(() => 0n),
    volume: 0n,
    liquidity: subsidy,
    b,
    feeBps: Number(feeBps),
    subsidy,
    tradeCount: 0,
    resolvedOutcome: null,
    createdAt: event.block.timestamp,
    closesAt,
    createdBlock: event.block.number,
    createdTxHash: event.transaction.hash,
  });
});
