import { onchainTable } from "ponder";

export const event = onchainTable("event", (t) => ({
  id: t.text().primaryKey(),
  name: t.text().notNull(),
  contract: t.hex().notNull(),
}));

/** Trades again, so that the benchmark can count them the same way in both apps. */
export const trade = onchainTable("trade", (t) => ({ id: t.text().primaryKey() }));
