// On-chain facts as Ponder writes them. Amounts are 6-decimal USDC/token units (bigint); prices
// are kept both exactly (WAD bigint, as the contract reports them) and as doubles for serving.
// Bigint arrays are numeric(78)[]: a reader outside Ponder must parse them as bigints (pg's default
// parser turns numeric[] into floats), as test/helpers/indexCheck.ts does.
import { index, onchainTable, primaryKey } from "ponder";

export const market = onchainTable(
  "market",
  (t) => ({
    address: t.hex().primaryKey(),
    /** keccak256(slug), also the CREATE2 salt. */
    id: t.hex().notNull(),
    slug: t.text().notNull(),
    title: t.text().notNull(),
    description: t.text().notNull(),
    outcomes: t.text().array().notNull(),
    /** On-chain status: active, closed, resolved or voided. Past closesAt an active market no longer trades. */
    status: t.text().notNull(),
    prices: t.doublePrecision().array().notNull(),
    pricesWad: t.bigint().array().notNull(),
    /** LMSR quantities: outstanding tokens per outcome. */
    quantities: t.bigint().array().notNull(),
    volume: t.bigint().notNull(),
    /** USDC held by the market contract. */
    liquidity: t.bigint().notNull(),
    b: t.bigint().notNull(),
    feeBps: t.integer().notNull(),
    subsidy: t.bigint().notNull(),
    tradeCount: t.integer().notNull(),
    resolvedOutcome: t.integer(),
    createdAt: t.bigint().notNull(),
    closesAt: t.bigint().notNull(),
    createdBlock: t.bigint().notNull(),
    createdTxHash: t.hex().notNull(),
  }),
  (table) => ({
    slugIdx: index().on(table.slug),
    statusCreatedIdx: index().on(table.status, table.createdAt),
    createdIdx: index().on(table.createdAt),
  }),
);

export const trade = onchainTable(
  "trade",
  (t) => ({
    /** `${txHash}-${logIndex}` */
    id: t.text().primaryKey(),
    market: t.hex().notNull(),
    trader: t.hex().notNull(),
    outcome: t.integer().notNull(),
    isBuy: t.boolean().notNull(),
    /** USDC the trader paid (buy, fee included) or received (sell, after the fee). */
    usdcAmount: t.bigint().notNull(),
    tokenAmount: t.bigint().notNull(),
    fee: t.bigint().notNull(),
    /** USDC per token, fee included, as a double. */
    avgPrice: t.doublePrecision().notNull(),
    pricesAfter: t.doublePrecision().array().notNull(),
    pricesAfterWad: t.bigint().array().notNull(),
    blockNumber: t.bigint().notNull(),
    logIndex: t.integer().notNull(),
    timestamp: t.bigint().notNull(),
    txHash: t.hex().notNull(),
    /** Set when the trade came in through the EntryPoint. */
    userOpHash: t.hex(),
  }),
  (table) => ({
    recentIdx: index().on(table.blockNumber, table.logIndex),
    marketRecentIdx: index().on(table.market, table.blockNumber, table.logIndex),
    traderIdx: index().on(table.trader, table.blockNumber),
    userOpIdx: index().on(table.userOpHash),
  }),
);

export const position = onchainTable(
  "position",
  (t) => ({
    holder: t.hex().notNull(),
    market: t.hex().notNull(),
    outcome: t.integer().notNull(),
    tokens: t.bigint().notNull(),
    /** USDC paid for the tokens still held (average cost). */
    costBasis: t.bigint().notNull(),
    realizedPnl: t.bigint().notNull(),
    updatedAt: t.bigint().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.holder, table.market, table.outcome] }),
    marketIdx: index().on(table.market),
  }),
);

export const claim = onchainTable(
  "claim",
  (t) => ({
    id: t.text().primaryKey(),
    market: t.hex().notNull(),
    holder: t.hex().notNull(),
    usdcPaid: t.bigint().notNull(),
    tokensBurned: t.bigint().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
    txHash: t.hex().notNull(),
    userOpHash: t.hex(),
  }),
  (table) => ({
    holderIdx: index().on(table.holder, table.market),
    userOpIdx: index().on(table.userOpHash),
  }),
);

export const userOperation = onchainTable(
  "user_operation",
  (t) => ({
    hash: t.hex().primaryKey(),
    sender: t.hex().notNull(),
    paymaster: t.hex().notNull(),
    nonce: t.bigint().notNull(),
    success: t.boolean().notNull(),
    actualGasCost: t.bigint().notNull(),
    actualGasUsed: t.bigint().notNull(),
    revertReason: t.hex(),
    txHash: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
  }),
  (table) => ({ senderIdx: index().on(table.sender, table.blockNumber) }),
);

export const usdcBalance = onchainTable("usdc_balance", (t) => ({
  holder: t.hex().primaryKey(),
  amount: t.bigint().notNull(),
  updatedAt: t.bigint().notNull(),
}));

/** Every USDC transfer; tips are matched to these by their user operation (api/db/tips.ts). */
export const usdcTransfer = onchainTable(
  "usdc_transfer",
  (t) => ({
    /** `${txHash}-${logIndex}` */
    id: t.text().primaryKey(),
    from: t.hex().notNull(),
    to: t.hex().notNull(),
    amount: t.bigint().notNull(),
    txHash: t.hex().notNull(),
    logIndex: t.integer().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
    /** Set when the transfer came in through the EntryPoint, from the sender's user operation. */
    userOpHash: t.hex(),
  }),
  (table) => ({
    userOpIdx: index().on(table.userOpHash),
    toIdx: index().on(table.to, table.blockNumber),
  }),
);

/** Price history per market and bucket; intervals are "1h", "4h", "1d". */
export const priceCandle = onchainTable(
  "price_candle",
  (t) => ({
    market: t.hex().notNull(),
    interval: t.text().notNull(),
    bucketStart: t.bigint().notNull(),
    open: t.doublePrecision().array().notNull(),
    high: t.doublePrecision().array().notNull(),
    low: t.doublePrecision().array().notNull(),
    close: t.doublePrecision().array().notNull(),
    volume: t.bigint().notNull(),
    tradeCount: t.integer().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.market, table.interval, table.bucketStart] }) }),
);

/** The agents of the AgentRegistry; an agent is its manager account, trading from its vault. */
export const agent = onchainTable(
  "agent",
  (t) => ({
    /** The agent's account (its smart account), which manages the vault and is paid its fees. */
    manager: t.hex().primaryKey(),
    vault: t.hex().notNull(),
    name: t.text().notNull(),
    persona: t.text().notNull(),
    strategy: t.text().notNull(),
    house: t.boolean().notNull(),
    active: t.boolean().notNull(),
    feeBps: t.integer().notNull(),
    lockupSeconds: t.bigint().notNull(),
    /** The vault's shares outstanding. */
    totalShares: t.bigint().notNull(),
    /** USDC bonded into the vault and paid out of it (net of fees), and the fees paid to the manager. */
    bonded: t.bigint().notNull(),
    unbonded: t.bigint().notNull(),
    feesPaid: t.bigint().notNull(),
    createdAt: t.bigint().notNull(),
    createdBlock: t.bigint().notNull(),
    txHash: t.hex().notNull(),
  }),
  (table) => ({ vaultIdx: index().on(table.vault), createdIdx: index().on(table.createdAt) }),
);

/** A stake in an agent's vault; `shares` 0 once fully unbonded. */
export const bond = onchainTable(
  "bond",
  (t) => ({
    /** The registry's bond id, unique across vaults. */
    id: t.bigint().primaryKey(),
    vault: t.hex().notNull(),
    agent: t.hex().notNull(),
    staker: t.hex().notNull(),
    /** USDC staked at first. */
    amount: t.bigint().notNull(),
    /** USDC staked for the shares still held (reduced pro rata by unbonds), as the vault keeps it. */
    principal: t.bigint().notNull(),
    shares: t.bigint().notNull(),
    /** The value of the shares still held above which the performance fee is due. */
    highWater: t.bigint().notNull(),
    /** USDC paid to the staker by unbonds (after fees) and the fees taken. */
    paidOut: t.bigint().notNull(),
    feesPaid: t.bigint().notNull(),
    bondedAt: t.bigint().notNull(),
    blockNumber: t.bigint().notNull(),
    txHash: t.hex().notNull(),
    userOpHash: t.hex(),
    updatedAt: t.bigint().notNull(),
  }),
  (table) => ({
    vaultIdx: index().on(table.vault, table.shares),
    stakerIdx: index().on(table.staker),
  }),
);

/** Every unbond, as the vault reported it. */
export const unbond = onchainTable(
  "unbond",
  (t) => ({
    /** `${txHash}-${logIndex}` */
    id: t.text().primaryKey(),
    bondId: t.bigint().notNull(),
    vault: t.hex().notNull(),
    staker: t.hex().notNull(),
    shares: t.bigint().notNull(),
    usdcPaid: t.bigint().notNull(),
    fee: t.bigint().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
    txHash: t.hex().notNull(),
    userOpHash: t.hex(),
  }),
  (table) => ({ bondIdx: index().on(table.bondId), userOpIdx: index().on(table.userOpHash) }),
);

/** Which agent a vault belongs to: the Market handlers look a trader up here (by primary key, so a
 * cache hit during backfill) to credit a vault's trade to its manager's user operation. */
export const agentVault = onchainTable("agent_vault", (t) => ({
  vault: t.hex().primaryKey(),
  manager: t.hex().notNull(),
}));
