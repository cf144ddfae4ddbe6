import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { formatUnits, parseUnits, type Address, type Hex } from "viem";
import { BundlerUnavailableError, buyCalls, claimCalls, outcomeBalance, quoteBuy, quoteSell, sellCalls, sendSponsored, type Call } from "../chain/trading";
import { usdcBalance } from "../chain/usdc";
import { ownerKeyFor } from "../chain/walletKeys";
import type { MarketRow } from "../db/markets";
import type { SubmissionRow } from "../db/submissions";
import { BEARER_AUTH, requireUser } from "../http/auth";
import { honourIdempotencyKey } from "../http/idempotency";
import type { AppEnv } from "../http/env";
import { ApiError, badRequest, errorResponses } from "../http/errors";
import { isoFromSeconds } from "../format";

/** A positive decimal with at most 6 places, as USDC and outcome tokens have on chain. */
const SixDecimals = z
  .number()
  .positive()
  .refine((value) => /^\d+(\.\d{1,6})?$/.test(String(value)), { message: "must have at most 6 decimal places" });

const Price = z.number().gt(0).lte(1);

const BuyBody = z.object({
  marketSlug: z.string().min(1),
  outcome: z.string().min(1),
  amount: SixDecimals.openapi({ description: "USDC to spend, fee included", example: 10 }),
  maxPrice: Price.optional().openapi({ description: "highest average price per token accepted; the trade reverts (spending nothing) above it" }),
});
const SellBody = z.object({
  marketSlug: z.string().min(1),
  outcome: z.string().min(1),
  tokenAmount: SixDecimals.openapi({ description: "outcome tokens to sell", example: 5 }),
  minPrice: Price.optional().openapi({ description: "lowest average price per token accepted, after the fee" }),
});
const ClaimBody = z.object({ marketSlug: z.string().min(1) });

const Pending = { status: z.literal("pending"), txHash: z.string().nullable().openapi({ description: "the bundle transaction; null if the bundler had not sent it within 5 s" }) };
const BuyResult = z
  .object({ txId: z.string(), marketSlug: z.string(), outcome: z.string(), amount: z.number(), tokensReceived: z.number(), avgPrice: z.number(), ...Pending })
  .openapi("BuyResult");
const SellResult = z
  .object({ txId: z.string(), marketSlug: z.string(), outcome: z.string(), tokensSold: z.number(), usdcReceived: z.number(), avgPrice: z.number(), ...Pending })
  .openapi("SellResult");
const ClaimResult = z.object({ txId: z.string(), marketSlug: z.string(), usdcClaimed: z.number(), ...Pending }).openapi("ClaimResult");
const TradeStatus = z
  .object({
    txId: z.string(),
    status: z.enum(["pending", "confirmed", "failed"]),
    txHash: z.string().nullable(),
    blockNumber: z.number().nullable(),
    confirmedAt: z.string().nullable().openapi({ format: "date-time" }),
    error: z.string().optional().openapi({ description: "why it failed: reverted (with the reason), refused by the bundler, or expired" }),
  })
  .openapi("TradeStatus");

const writeRoute = <Body extends z.ZodType, Result extends z.ZodType>(path: string, summary: string, body: Body, result: Result, description: string) =>
  createRoute({
    method: "post",
    path,
    tags: ["Trades"],
    summary,
    description,
    security: BEARER_AUTH,
    middleware: [requireUser(), honourIdempotencyKey()] as const,
    request: { body: { required: true, content: { "application/json": { schema: body } } } },
    responses: {
      200: { description: "accepted by the bundler: status `pending`; follow it with GET /api/trade/status/{txId}", content: { "application/json": { schema: result } } },
      ...errorResponses(400, 401, 404, 409, 422, 503),
    },
  });

const COMMON = "One sponsored ERC-4337 user operation from the caller's smart account; `txId` is its user operation hash. Confirmation comes only from the indexer. With an `Idempotency-Key` header, a repeat of the same request replays the first answer (header `Idempotent-Replayed: true`); the same key with another body is a 422.";
const buyRoute = writeRoute("/api/trade/buy", "Buy outcome tokens", BuyBody, BuyResult, `${COMMON} 400 for an outcome not in the market, an amount not positive or finer than 6 decimals, not enough USDC, or a maxPrice below the quote; 404 for an unknown market or a user without a wallet; 409 when the market is not active; 503 when the bundler is unavailable.`);
const sellRoute = writeRoute("/api/trade/sell", "Sell outcome tokens", SellBody, SellResult, `${COMMON} 400 for not enough tokens or a minPrice above the quote; otherwise as buy.`);
const claimRoute = writeRoute("/api/trade/claim", "Claim winnings of a resolved market", ClaimBody, ClaimResult, `${COMMON} 400 when the market is not resolved (or voided); 404 for an unknown market or no position to claim.`);

const statusRoute = createRoute({
  method: "get",
  path: "/api/trade/status/{txId}",
  tags: ["Trades"],
  summary: "Status of a trade transaction",
  description: "`confirmed` once the indexer has seen the user operation succeed; `failed` when it reverted, was refused, or passed its deadline. Only its owner may read it: another user's txId is 404.",
  security: BEARER_AUTH,
  middleware: [requireUser()] as const,
  request: { params: z.object({ txId: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a user operation hash").openapi({ param: { name: "txId", in: "path" } }) }) },
  responses: {
    200: { description: "the status", content: { "application/json": { schema: TradeStatus } } },
    ...errorResponses(400, 401, 404),
  },
});

type Prepared = { market: MarketRow & { contract_address: string }; wallet: Address; ownerKey: Hex; chain: NonNullable<AppEnv["Variables"]["chain"]> };

async function prepare(c: Context<AppEnv>, slug: string): Promise<Prepared> {
  const chain = c.var.chain;
  const masterKey = c.var.config.WALLET_MASTER_KEY;
  if (!chain || !masterKey) throw new ApiError(503, "chain_unavailable", "this API instance cannot send transactions");
  const market = await c.var.db.markets.bySlug(slug);
  if (!market || !market.contract_address) throw new ApiError(404, "not_found", "market not found");
  const wallet = await c.var.db.wallets.find(c.var.user.id);
  if (!wallet) throw new ApiError(404, "wallet_not_found", "no wallet for this user; call POST /api/wallet/get-or-create first");
  return { market: market as Prepared["market"], wallet: wallet.address as Address, ownerKey: ownerKeyFor(masterKey, c.var.user.id), chain };
}

function outcomeIndex(market: MarketRow, outcome: string): number {
  const index = market.outcomes.indexOf(outcome);
  if (index < 0) throw badRequest("outcome", `not an outcome of this market (${market.outcomes.join(", ")})`);
  return index;
}

function requireActive(market: MarketRow) {
  if (market.status !== "active") throw new ApiError(409, "market_not_active", `the market is ${market.status}`);
}

/** Records the write, sends it, and records the answer: a crash at any point leaves a trace. */
async function submit<R>(c: Context<AppEnv>, kind: SubmissionRow["kind"], request: unknown, prepared: Prepared, calls: Call[], result: (hash: Hex, txHash: Hex | null) => R): Promise<R> {
  const { config } = c.var;
  const sponsor = config.PAYMASTER_URL ? { paymasterUrl: config.PAYMASTER_URL } : config.PAYMASTER_SIGNER_KEY ? { signerKey: config.PAYMASTER_SIGNER_KEY } : undefined;
  if (!config.BUNDLER_URL || !sponsor) throw new ApiError(503, "bundler_unavailable", "no bundler or paymaster is configured");
  const id = await c.var.db.submissions.prepare(c.var.user.id, kind, request, Math.floor(Date.now() / 1000) + 300);
  try {
    const sent = await sendSponsored({
      chain: prepared.chain,
      bundlerUrl: config.BUNDLER_URL,
      sponsor,
      ownerKey: prepared.ownerKey,
      calls,
      beforeSend: (hash) => c.var.db.submissions.attach(id, hash),
    });
    const response = result(sent.userOpHash, sent.txHash);
    await c.var.db.submissions.submitted(id, sent.userOpHash, sent.txHash, response);
    return response;
  } catch (error) {
    const unavailable = error instanceof BundlerUnavailableError;
    await c.var.db.submissions.failed(id, unavailable ? "bundler_unavailable" : String((error as Error).message).slice(0, 500));
    if (unavailable) throw new ApiError(503, "bundler_unavailable", "the bundler is unavailable; nothing was sent, try again");
    c.var.log.warn({ err: error }, "user operation refused");
    throw new ApiError(409, "rejected", `the user operation was refused: ${(error as { shortMessage?: string }).shortMessage ?? "simulation failed"}`);
  }
}

const units = (value: number) => parseUnits(String(value), 6);
const decimal = (value: bigint) => Number(formatUnits(value, 6));

export const tradeWriteRoutes = new OpenAPIHono<AppEnv>()
  .openapi(buyRoute, async (c) => {
    const body = c.req.valid("json");
    const prepared = await prepare(c, body.marketSlug);
    const outcome = outcomeIndex(prepared.market, body.outcome);
    requireActive(prepared.market);
    const spend = units(body.amount);
    const market = prepared.market.contract_address as Address;
    const quote = await quoteBuy(prepared.chain, market, outcome, spend).catch(() => {
      throw badRequest("amount", "the market cannot fill this amount");
    });
    const minTokensOut = body.maxPrice ? (spend * 1_000_000n + units(body.maxPrice) - 1n) / units(body.maxPrice) : 0n;
    if (quote.tokensOut < minTokensOut) throw badRequest("maxPrice", `the average price would be ${(Number(spend) / Number(quote.tokensOut)).toFixed(6)}, above maxPrice`);
    if ((await usdcBalance(prepared.chain, prepared.wallet)).units < spend) throw badRequest("amount", "not enough USDC in the wallet");
    const calls = await buyCalls(prepared.chain, prepared.wallet, market, outcome, spend, minTokensOut);
    return c.json(
      await submit(c, "buy", body, prepared, calls, (txId, txHash) => ({
        txId,
        marketSlug: body.marketSlug,
        outcome: body.outcome,
        amount: body.amount,
        tokensReceived: decimal(quote.tokensOut),
        avgPrice: Number(spend) / Number(quote.tokensOut),
        status: "pending" as const,
        txHash,
      })),
      200,
    );
  })
  .openapi(sellRoute, async (c) => {
    const body = c.req.valid("json");
    const prepared = await prepare(c, body.marketSlug);
    const outcome = outcomeIndex(prepared.market, body.outcome);
    requireActive(prepared.market);
    const tokens = units(body.tokenAmount);
    const market = prepared.market.contract_address as Address;
    if ((await outcomeBalance(prepared.chain, market, prepared.wallet, outcome)) < tokens) throw badRequest("tokenAmount", "not enough outcome tokens in the wallet");
    const quote = await quoteSell(prepared.chain, market, outcome, tokens);
    const minUsdcOut = body.minPrice ? (tokens * units(body.minPrice)) / 1_000_000n : 0n;
    if (quote.usdcOut < minUsdcOut) throw badRequest("minPrice", `the average price would be ${(Number(quote.usdcOut) / Number(tokens)).toFixed(6)}, below minPrice`);
    return c.json(
      await submit(c, "sell", body, prepared, sellCalls(market, outcome, tokens, minUsdcOut), (txId, txHash) => ({
        txId,
        marketSlug: body.marketSlug,
        outcome: body.outcome,
        tokensSold: body.tokenAmount,
        usdcReceived: decimal(quote.usdcOut),
        avgPrice: Number(quote.usdcOut) / Number(tokens),
        status: "pending" as const,
        txHash,
      })),
      200,
    );
  })
  .openapi(claimRoute, async (c) => {
    const body = c.req.valid("json");
    const prepared = await prepare(c, body.marketSlug);
    const { market } = prepared;
    if (market.status !== "resolved" && market.status !== "voided") throw new ApiError(400, "market_not_resolved", `the market is ${market.status}, not resolved`);
    const address = market.contract_address as Address;
    const winners = market.status === "resolved" ? [market.resolved_outcome!] : market.outcomes.map((_, i) => i);
    const held = await Promise.all(winners.map((outcome) => outcomeBalance(prepared.chain, address, prepared.wallet, outcome)));
    const tokens = held.reduce((sum, value) => sum + value, 0n);
    if (tokens === 0n) throw new ApiError(404, "no_position", "no position to claim in this market");
    const payout = market.status === "resolved" ? tokens : tokens / BigInt(market.outcomes.length);
    return c.json(
      await submit(c, "claim", body, prepared, claimCalls(address), (txId, txHash) => ({
        txId,
        marketSlug: body.marketSlug,
        usdcClaimed: decimal(payout),
        status: "pending" as const,
        txHash,
      })),
      200,
    );
  })
  .openapi(statusRoute, async (c) => {
    const txId = c.req.valid("param").txId.toLowerCase();
    const row = await c.var.db.submissions.statusOf(c.var.user.id, txId);
    if (!row) throw new ApiError(404, "not_found", "no such transaction for this user");
    const base = { txId, txHash: row.indexed_tx_hash ?? row.tx_hash, blockNumber: null, confirmedAt: null };
    if (row.success === true) {
      return c.json({ ...base, status: "confirmed" as const, blockNumber: Number(row.block_number), confirmedAt: isoFromSeconds(row.timestamp!) }, 200);
    }
    if (row.success === false) {
      return c.json({ ...base, status: "failed" as const, blockNumber: Number(row.block_number), error: `reverted${row.revert_reason ? ` (${row.revert_reason})` : ""}` }, 200);
    }
    if (row.state === "failed") return c.json({ ...base, status: "failed" as const, error: row.error ?? "refused" }, 200);
    // Past the sponsorship deadline (and a margin for indexing) it can no longer be included.
    if (Date.now() > row.valid_until.getTime() + 60_000) return c.json({ ...base, status: "failed" as const, error: "expired" }, 200);
    return c.json({ ...base, status: "pending" as const }, 200);
  });
