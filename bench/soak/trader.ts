// One simulated trader of the soak: a user of its own, with a wallet the faucet funds once, buying
// and selling through the public API. It keeps one write in flight: it sends a buy or a sell,
// follows GET /api/trade/status (held by the route while pending) until the write ends, pauses,
// and goes on. It sells only tokens its indexed positions say it holds, and buys only with USDC it
// has not spent.
import { tokenFor } from "../../test/helpers/tokens";
import type { AcceptedWrite } from "./checks";

export type SoakMarket = { slug: string; outcomes: string[] };

export type Random = { next(): number; int(max: number): number; pick<T>(items: T[]): T };

export type SoakRecord = {
  /** Every write the API accepted, updated as its trader follows it. */
  writes: AcceptedWrite[];
  /** Writes the API did not accept, as "<side> <status> <code>". */
  refusals: string[];
};

export type Trader = { userId: string; token: string; address: string; usdcLeft: number };

export type TradingOptions = {
  apiUrl: string;
  markets: SoakMarket[];
  /** performance.now() after which no write starts. */
  stopAt: number;
  /** performance.now() after which a write still pending is left as it is. */
  settleBy: number;
  thinkMs: number;
  pollMs: number;
  random: Random;
  record: SoakRecord;
};

/** Share of a trader's writes that are sells, when it holds anything to sell. */
const SELL_SHARE = 0.35;
const LARGEST_BUY_USDC = 20;
/** The longest the status route is asked to hold a pending write's request. */
const STATUS_WAIT_MS = 10_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Answer = { status: number; body: any };

async function call(apiUrl: string, method: "GET" | "POST", path: string, token: string, body?: unknown) {
  const response = await fetch(`${apiUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json().catch(() => null) } as Answer;
}

/** A new user with a wallet and the faucet's grant; its token outlives the run. */
export async function openTrader(apiUrl: string, userId: string, expiresAt: number): Promise<Trader> {
  const token = await tokenFor(userId, {}, { expiresAt });
  const wallet = await call(apiUrl, "POST", "/api/wallet/get-or-create", token);
  if (wallet.status !== 200)
    throw new Error(`get-or-create for ${userId}: ${wallet.status} ${JSON.stringify(wallet.body)}`);
  const grant = await call(apiUrl, "POST", "/api/wallet/faucet", token);
  if (grant.status !== 200) throw new Error(`faucet for ${userId}: ${grant.status} ${JSON.stringify(grant.body)}`);
  return { userId, token, address: wallet.body.address, usdcLeft: Number(grant.body.amount) };
}

/** Trades until `stopAt`, then follows its last write until it ends or `settleBy` passes. */
export async function trade(trader: Trader, options: TradingOptions): Promise<void> {
  const { random } = options;
  while (performance.now() < options.stopAt) {
    const order = await nextOrder(trader, options);
    if (!order) return;
    const sentAt = performance.now();
    const answer = await call(options.apiUrl, "POST", `/api/trade/${order.side}`, trader.token, order.body).catch(
      (error: Error) => ({ status: 0, body: { error: { code: `no answer (${error.message})` } } }),
    );
    if (answer.status !== 200) {
      options.record.refusals.push(`${order.side} ${answer.status} ${answer.body?.error?.code ?? "?"}`);
    } else {
      const write: AcceptedWrite = {
        txId: answer.body.txId,
        side: order.side,
        status: "pending",
        acceptedAfterMs: performance.now() - sentAt,
      };
      options.record.writes.push(write);
      if (order.side === "buy") trader.usdcLeft -= order.body.amount as number;
      await follow(trader, write, sentAt, options);
      if (order.side === "buy" && write.status === "failed") trader.usdcLeft += order.body.amount as number;
    }
    await sleep(random.next() * options.thinkMs);
  }
}

type Order = { side: "buy" | "sell"; body: Record<string, unknown> };

async function nextOrder(trader: Trader, options: TradingOptions): Promise<Order | undefined> {
  const { random, markets } = options;
  if (random.next() < SELL_SHARE || trader.usdcLeft < 1) {
    const held = await holdings(trader, options);
    if (held.length > 0) {
      const position = random.pick(held);
      // A share of the holding, in whole micro-tokens (6 decimals), at least one of them.
      const units = Math.max(1, Math.floor(position.units * (0.1 + 0.9 * random.next())));
      return {
        side: "sell",
        body: { marketSlug: position.marketSlug, outcome: position.outcome, tokenAmount: units / 1e6 },
      };
    }
  }
  if (trader.usdcLeft < 1) return undefined;
  const market = random.pick(markets);
  const cents = 100 + random.int(Math.floor(Math.min(LARGEST_BUY_USDC, trader.usdcLeft) * 100) - 99);
  return { side: "buy", body: { marketSlug: market.slug, outcome: random.pick(market.outcomes), amount: cents / 100 } };
}

/** The trader's indexed positions in the soak's markets with tokens left. */
async function holdings(trader: Trader, options: TradingOptions) {
  const answer = await call(options.apiUrl, "GET", "/api/wallet/positions", trader.token).catch(() => undefined);
  if (answer?.status !== 200) return [];
  const slugs = new Set(options.markets.map((market) => market.slug));
  return (answer.body.positions as { marketSlug: string; outcome: string; tokens: number }[])
    .filter((position) => slugs.has(position.marketSlug) && position.tokens > 0)
    .map((position) => ({ ...position, units: Math.round(position.tokens * 1e6) }));
}

/**
 * Asks the write's status, held by the route while pending but not past `settleBy`, until it is
 * confirmed or failed, or `settleBy` passes. Only after an answer that was not held (an error, no
 * answer) does it pause `pollMs` before asking again.
 */
async function follow(trader: Trader, write: AcceptedWrite, sentAt: number, options: TradingOptions) {
  while (performance.now() < options.settleBy) {
    const waitMs = Math.min(STATUS_WAIT_MS, Math.ceil(options.settleBy - performance.now()));
    const path = `/api/trade/status/${write.txId}?waitMs=${waitMs}`;
    const answer = await call(options.apiUrl, "GET", path, trader.token).catch(() => undefined);
    if (answer?.status !== 200) {
      await sleep(options.pollMs);
      continue;
    }
    if (answer.body.status === "pending") continue;
    write.status = answer.body.status;
    if (write.status === "confirmed") write.confirmedAfterMs = performance.now() - sentAt;
    else write.error = answer.body.error ?? "failed";
    return;
  }
}
