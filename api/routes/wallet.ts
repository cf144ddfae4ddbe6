import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { type Address, getAddress } from "viem";
import { TEST_NETWORK_CHAIN_ID, toUsdcUnits, USDC_DECIMALS } from "../../constants";
import { bondEntries } from "../agents/bondEntries";
import { marketPositionViews } from "../agents/view";
import { simpleAccount } from "../chain/smartAccount";
import { mintUsdc, usdcBalance } from "../chain/usdc";
import { ownerKeyFor } from "../chain/walletKeys";
import { BEARER_AUTH, requireUser } from "../http/auth";
import type { AppEnv } from "../http/env";
import { ApiError, chainUnavailable, errorResponses, walletNotFound } from "../http/errors";
import { honourIdempotencyKey } from "../http/idempotency";
import { ACCOUNT_WRITE_LIMIT_NOTE, limitAccountWrites, limitWrites, writeLimitNote } from "../http/writeLimits";
import { Bond, MAX_BONDS_LIMIT } from "./agents";

const Wallet = z
  .object({
    walletId: z.string(),
    address: z.string().openapi({
      description: "the smart-contract account (SimpleAccount v0.7); deployed by its first user operation",
    }),
    chainId: z.number().openapi({ example: 2010111 }),
    type: z.literal("SCA"),
    createdAt: z.string().openapi({ format: "date-time" }),
    isNew: z.boolean().openapi({ description: "true only on the call that created the wallet" }),
  })
  .openapi("Wallet");

const WalletBalance = z
  .object({
    walletId: z.string(),
    address: z.string(),
    chainId: z.number(),
    balances: z.array(
      z.object({
        token: z.string().openapi({ example: "USDC" }),
        amount: z.string().openapi({ description: "decimal amount as a string, to keep precision", example: "25.5" }),
        contractAddress: z.string(),
        decimals: z.number().openapi({ example: 6 }),
      }),
    ),
  })
  .openapi("WalletBalance");

const FaucetGrant = z
  .object({ walletId: z.string(), address: z.string(), amount: z.string(), txHash: z.string() })
  .openapi("FaucetGrant");

const getOrCreateRoute = createRoute({
  method: "post",
  path: "/api/wallet/get-or-create",
  operationId: "getOrCreateWallet",
  tags: ["Wallet"],
  summary: "The caller's gasless smart-account wallet, created on first call",
  description: ACCOUNT_WRITE_LIMIT_NOTE,
  security: BEARER_AUTH,
  middleware: [requireUser(), limitAccountWrites(), honourIdempotencyKey()] as const,
  responses: {
    200: { description: "the wallet", content: { "application/json": { schema: Wallet } } },
    ...errorResponses(400, 401, 413, 415, 429, 500, 503),
  },
});

const balanceRoute = createRoute({
  method: "get",
  path: "/api/wallet/balance",
  operationId: "getWalletBalance",
  tags: ["Wallet"],
  summary: "USDC balance of the caller's wallet, read from the chain",
  security: BEARER_AUTH,
  middleware: [requireUser()] as const,
  responses: {
    200: { description: "balances", content: { "application/json": { schema: WalletBalance } } },
    ...errorResponses(401, 404, 503),
  },
});

const faucetRoute = createRoute({
  method: "post",
  path: "/api/wallet/faucet",
  operationId: "requestFaucetGrant",
  tags: ["Wallet"],
  summary: "Test-network faucet: mints test USDC to the caller's wallet",
  description: `Only on the test network. One grant per user per FAUCET_INTERVAL_SECONDS; a later call is a 429 with Retry-After. ${writeLimitNote("WRITE_LIMIT_FAUCET", "100 an hour", "faucet requests")}`,
  security: BEARER_AUTH,
  middleware: [
    requireUser(),
    limitWrites({ name: "faucet", limit: (config) => config.WRITE_LIMIT_FAUCET }),
    honourIdempotencyKey(),
  ] as const,
  responses: {
    200: { description: "minted and mined", content: { "application/json": { schema: FaucetGrant } } },
    ...errorResponses(400, 401, 404, 413, 415, 429, 503),
  },
});

const WalletPositions = z
  .object({
    address: z.string(),
    positions: z.array(
      z.object({
        marketSlug: z.string(),
        outcome: z.string(),
        tokens: z.number(),
        costBasis: z.number().openapi({ description: "USDC paid for the tokens still held (average cost)" }),
        value: z.number().openapi({
          description:
            "USDC at the indexed price; once resolved 1 per winning token and 0 per losing one; once voided 1/n",
        }),
        unrealizedPnl: z.number().openapi({ description: "value − costBasis" }),
        realizedPnl: z.number().openapi({ description: "USDC made or lost by the sales and claims of this outcome" }),
      }),
    ),
    bonds: z.array(Bond),
    asOf: z
      .number()
      .int()
      .openapi({ description: "the chain block the indexer had committed when this answer was read" }),
  })
  .openapi("WalletPositions");

const positionsRoute = createRoute({
  method: "get",
  path: "/api/wallet/positions",
  operationId: "getWalletPositions",
  tags: ["Wallet"],
  summary: "The caller's market positions and bonds, with cost, value and profit and loss",
  description: `Positions of the caller's wallet with tokens left or a realized result, and its bonds with shares left (the newest ${MAX_BONDS_LIMIT}), as indexed from the chain.`,
  security: BEARER_AUTH,
  middleware: [requireUser()] as const,
  responses: {
    200: { description: "positions and bonds", content: { "application/json": { schema: WalletPositions } } },
    ...errorResponses(401, 404, 503),
  },
});

const requireChain = (chain: AppEnv["Variables"]["chain"]) => {
  if (!chain) throw chainUnavailable("this API instance has no chain access (RPC_URL)");
  return chain;
};

export const walletRoutes = new OpenAPIHono<AppEnv>()
  .openapi(getOrCreateRoute, async (c) => {
    const user = c.var.user;
    const existing = await c.var.db.wallets.find(user.id);
    let wallet = existing;
    let created = false;
    if (!existing) {
      let address: Address;
      try {
        const chain = requireChain(c.var.chain);
        const masterKey = c.var.config.WALLET_MASTER_KEY;
        if (!masterKey) throw new Error("WALLET_MASTER_KEY is not configured");
        const account = await simpleAccount(chain.publicClient, ownerKeyFor(masterKey, user.id));
        address = account.address;
      } catch (error) {
        c.var.log.error({ err: error }, "wallet provisioning failed");
        throw new ApiError(
          500,
          "wallet_provisioning_failed",
          "the wallet could not be provisioned; try again",
          undefined,
          {
            cause: error,
          },
        );
      }
      ({ wallet, created } = await c.var.db.wallets.getOrCreate(user.id, address));
    }
    return c.json(
      {
        walletId: wallet!.wallet_id,
        address: getAddress(wallet!.address),
        chainId: c.var.config.CHAIN_ID,
        type: "SCA" as const,
        createdAt: wallet!.created_at.toISOString(),
        isNew: created,
      },
      200,
    );
  })
  .openapi(balanceRoute, async (c) => {
    const wallet = await c.var.db.wallets.find(c.var.user.id);
    if (!wallet) throw walletNotFound();
    const chain = requireChain(c.var.chain);
    const balance = await usdcBalance(chain, wallet.address as Address);
    return c.json(
      {
        walletId: wallet.wallet_id,
        address: getAddress(wallet.address),
        chainId: c.var.config.CHAIN_ID,
        balances: [
          {
            token: "USDC",
            amount: balance.decimal,
            contractAddress: chain.deployment.contracts.usdc,
            decimals: USDC_DECIMALS,
          },
        ],
      },
      200,
    );
  })
  .openapi(positionsRoute, async (c) => {
    const wallet = await c.var.db.wallets.find(c.var.user.id);
    if (!wallet) throw walletNotFound();
    const held = await c.var.db.agents.holdings(wallet.address.toLowerCase(), MAX_BONDS_LIMIT);
    return c.json(
      {
        address: getAddress(wallet.address),
        positions: held.markets.flatMap(marketPositionViews),
        bonds: await bondEntries(c.var.chain, held.bonds, held.asOf),
        asOf: held.asOf,
      },
      200,
    );
  })
  .openapi(faucetRoute, async (c) => {
    const { config } = c.var;
    if (config.CHAIN_ID !== TEST_NETWORK_CHAIN_ID || !config.FAUCET_ENABLED)
      throw new ApiError(404, "faucet_unavailable", "the faucet only runs on the test network");
    const wallet = await c.var.db.wallets.find(c.var.user.id);
    if (!wallet) throw walletNotFound();
    const chain = requireChain(c.var.chain);
    const amount = toUsdcUnits(config.FAUCET_AMOUNT_USDC);
    const outcome = await c.var.db.wallets.withFaucetAllowance(
      c.var.user.id,
      config.FAUCET_INTERVAL_SECONDS,
      async () => {
        const txHash = await mintUsdc(chain, wallet.address as Address, amount);
        return { amount, txHash, result: txHash };
      },
    );
    if (!outcome.allowed) {
      c.header("Retry-After", String(outcome.retryAfterSeconds));
      throw new ApiError(
        429,
        "rate_limited",
        `the faucet grants once per ${config.FAUCET_INTERVAL_SECONDS} s; retry in ${outcome.retryAfterSeconds} s`,
      );
    }
    return c.json(
      {
        walletId: wallet.wallet_id,
        address: getAddress(wallet.address),
        amount: String(config.FAUCET_AMOUNT_USDC),
        txHash: outcome.result,
      },
      200,
    );
  });
