import { onchainTable } from "ponder";

export const trade = onchainTable("trade", (t) => ({
  id: t.text().primaryKey(),
  market: t.hex().notNull(),
  trader: t.hex().notNull(),
  usdcAmount: t.bigint().notNull(),
}));
