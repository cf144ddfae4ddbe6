import { ponder } from "ponder:registry";
import { claim, market, position, priceCandle, trade } from "ponder:schema";
import type { Address } from "viem";
import { marketUserOpHash } from "./lib/operationSender";
import { bucketStart, CANDLE_INTERVALS, wadToNumber } from "./lib/prices";

type Db = Parameters<Parameters<typeof ponder.on<"Market:Trade">>[1]>[0]["context"]["db"];

ponder.on("Market:Trade", async ({ event, context }) => {
  const { trader, isBuy, usdcAmount, tokenAmount, fee, pricesAfter } = event.args;
  const outcome = Number(event.args.outcome);
  const address = event.log.address;
  const timestamp = event.block.timestamp;
  const prices = pricesAfter.map(wadToNumber);
  // Gross USDC crossing the market: a buyer's payment, or a seller's proceeds plus the fee.
  const gross = isBuy ? usdcAmount : usdcAmount + fee;

  await context.db.insert(trade).values({
    id: `${event.transaction.hash}-${event.log.logIndex}`,
    market: address,
    trader,
    outcome,
    isBuy,
    usdcAmount,
    tokenAmount,
    fee,
    avgPrice: Number(usdcAmount) / Number(tokenAmount),
    pricesAfter: prices,
    pricesAfterWad: [...pricesAfter],
    blockNumber: event.block.number,
    logIndex: event.log.logIndex,
    timestamp,
    txHash: event.transaction.hash,
    userOpHash: await marketUserOpHash(context, event.transaction, trader),
  });

  await context.db.update(market, { address }).set((row) => {
    const quantities = [...row.quantities];
    quantities[outcome] = quantities[outcome]! + (isBuy ? tokenAmount : -tokenAmount);
    return {
      prices,
      pricesWad: [...pricesAfter],
      quantities,
      volume: row.volume + gross,
      liquidity: row.liquidity + (isBuy ? usdcAmount - fee : -gross),
      tradeCount: row.tradeCount + 1,
    };
  });

  const key = { holder: trader, market: address, outcome };
  if (isBuy) {
    await context.db
      .insert(position)
      .values({ ...key, tokens: tokenAmount, costBasis: usdcAmount, realizedPnl: 0n, updatedAt: timestamp })
      .onConflictDoUpdate((row) => ({
        tokens: row.tokens + tokenAmount,
        costBasis: row.costBasis + usdcAmount,
        updatedAt: timestamp,
      }));
  } else {
    await context.db.update(position, key).set((row) => {
      const released = (row.costBasis * tokenAmount) / row.tokens;
      return {
        tokens: row.tokens - tokenAmount,
        costBasis: row.costBasis - released,
        realizedPnl: row.realizedPnl + usdcAmount - released,
        updatedAt: timestamp,
      };
    });
  }

  for (const interval of CANDLE_INTERVALS) {
    await context.db
      .insert(priceCandle)
      .values({
        market: address,
        interval,
        bucketStart: bucketStart(timestamp, interval),
        open: prices,
        high: prices,
        low: prices,
        close: prices,
        volume: gross,
        tradeCount: 1,
      })
      .onConflictDoUpdate((row) => ({
        high: row.high.map((high, i) => Math.max(high, prices[i]!)),
        low: row.low.map((low, i) => Math.min(low, prices[i]!)),
        close: prices,
        volume: row.volume + gross,
        tradeCount: row.tradeCount + 1,
      }));
  }
});

ponder.on("Market:Closed", async ({ event, context }) => {
  await context.db.update(market, { address: event.log.address }).set({ status: "closed" });
});

ponder.on("Market:Resolved", async ({ event, context }) => {
  await context.db
    .update(market, { address: event.log.address })
    .set({ status: "resolved", resolvedOutcome: Number(event.args.outcome) });
});

ponder.on("Market:Voided", async ({ event, context }) => {
  await context.db.update(market, { address: event.log.address }).set({ status: "voided" });
});

ponder.on("Market:Claimed", async ({ event, context }) => {
  const { holder, usdcPaid, tokensBurned } = event.args;
  const address = event.log.address;
  await context.db.insert(claim).values({
    id: `${event.transaction.hash}-${event.log.logIndex}`,
    market: address,
    holder,
    usdcPaid,
    tokensBurned,
    blockNumber: event.block.number,
    timestamp: event.block.timestamp,
    txHash: event.transaction.hash,
    userOpHash: await marketUserOpHash(context, event.transaction, holder),
  });
  const settled = await context.db.update(market, { address }).set((row) => ({ liquidity: row.liquidity - usdcPaid }));

  // A claim burns every winning token of the holder, or after a void every token at 1/n each.
  const outcomes = settled.status === "resolved" ? [settled.resolvedOutcome!] : settled.outcomes.map((_, i) => i);
  let paidSoFar = 0n;
  for (const [i, outcome] of outcomes.entries()) {
    const held = await context.db.find(position, { holder, market: address, outcome });
    if (!held || held.tokens === 0n) continue;
    const isLast = i === outcomes.length - 1;
    const paid = isLast ? usdcPaid - paidSoFar : (usdcPaid * held.tokens) / tokensBurned;
    paidSoFar += paid;
    await settle(context.db, held, paid, event.block.timestamp);
  }
});

async function settle(db: Db, held: typeof position.$inferSelect, paid: bigint, timestamp: bigint) {
  await db.update(position, { holder: held.holder, market: held.market, outcome: held.outcome }).set({
    tokens: 0n,
    costBasis: 0n,
    realizedPnl: held.realizedPnl + paid - held.costBasis,
    updatedAt: timestamp,
  });
}

ponder.on("Market:TransferSingle", async ({ event, context }) => {
  const { from, to, id, amount } = event.args;
  await moveTokens(context.db, event.log.address, from, to, Number(id), amount, event.block.timestamp);
});

ponder.on("Market:TransferBatch", async ({ event, context }) => {
  const { from, to, ids, amounts } = event.args;
  for (const [i, id] of ids.entries()) {
    await moveTokens(context.db, event.log.address, from, to, Number(id), amounts[i]!, event.block.timestamp);
  }
});

const ZERO: Address = "0x0000000000000000000000000000000000000000";

/** Holder-to-holder moves only: mints and burns are the Trade and Claimed events' business. */
async function moveTokens(
  db: Db,
  marketAddress: Address,
  from: Address,
  to: Address,
  outcome: number,
  amount: bigint,
  timestamp: bigint,
) {
  if (from === ZERO || to === ZERO || amount === 0n) return;
  const sender = await db.find(position, { holder: from, market: marketAddress, outcome });
  const movedCost = sender && sender.tokens > 0n ? (sender.costBasis * amount) / sender.tokens : 0n;
  await db.update(position, { holder: from, market: marketAddress, outcome }).set((row) => ({
    tokens: row.tokens - amount,
    costBasis: row.costBasis - movedCost,
    updatedAt: timestamp,
  }));
  await db
    .insert(position)
    .values({
      holder: to,
      market: marketAddress,
      outcome,
      tokens: amount,
      costBasis: movedCost,
      realizedPnl: 0n,
      updatedAt: timestamp,
    })
    .onConflictDoUpdate((row) => ({
      tokens: row.tokens + amount,
      costBasis: row.costBasis + movedCost,
      updatedAt: timestamp,
    }));
}
