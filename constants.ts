// Units and constants that the contracts fix and every layer (API, indexer, scripts, tests) shares:
// one name and one value for each. Import from here instead of writing the number again.
import { formatUnits, parseUnits } from "viem";

/** The local test network's chain id (anvil, and the chain the deployments/ file names). */
export const TEST_NETWORK_CHAIN_ID = 2010111;

/** USDC has 6 decimals on chain; outcome tokens have the same, so one token redeems for 1 USDC. */
export const USDC_DECIMALS = 6;
/** One USDC (or one outcome token) in chain units. */
export const USDC_UNIT = 10n ** BigInt(USDC_DECIMALS);

/** A decimal amount of USDC or outcome tokens (`12.5`, `"0.000001"`) in chain units, exactly. */
export const toUsdcUnits = (amount: number | string): bigint => parseUnits(String(amount), USDC_DECIMALS);
/** Chain units as a decimal string that keeps every digit (`"12.5"`), as balances are served. */
export const usdcString = (units: bigint): string => formatUnits(units, USDC_DECIMALS);
/** Chain units (bigint or numeric string) as a decimal number, as JSON amounts are served. */
export const usdcNumber = (units: bigint | string | number): number => Number(units) / Number(USDC_UNIT);

/** How long a gas sponsorship stays valid: the bundler must include the user operation by then. */
export const SPONSORSHIP_VALIDITY_SECONDS = 300;

/** Outcomes per market, as MarketFactory.createMarket accepts them. */
export const MIN_OUTCOMES = 2;
export const MAX_OUTCOMES = 8;
/** Highest trading fee a market may charge, in basis points (MarketFactory's InvalidFee bound). */
export const MAX_FEE_BPS = 1000;
/**
 * The LMSR parameter `b` in USDC: the factory's MIN_B is 1 USDC; the API's upper bound keeps the
 * house's worst-case loss, b·ln n, within what a local operator holds.
 */
export const MIN_B_USDC = 1;
export const MAX_B_USDC = 1_000_000;

/** Candle buckets of the price history: the indexer writes one row per bucket, the API serves them. */
export const CANDLE_INTERVAL_SECONDS = { "1h": 3_600, "4h": 14_400, "1d": 86_400 } as const;
export type CandleInterval = keyof typeof CANDLE_INTERVAL_SECONDS;

/**
 * Paid research's payment network: Circle's Arc testnet (CAIP-2 `eip155:5042002`), its ERC-20 USDC
 * (6 decimals, EIP-3009, EIP-712 domain "USDC"/"2") and the price of one research in its units.
 * Locally a second anvil with this chain id stands in (scripts/stack/paymentChain.ts).
 */
export const PAYMENT_CHAIN_ID = 5042002;
export const PAYMENT_NETWORK = `eip155:${PAYMENT_CHAIN_ID}` as const;
export const PAYMENT_USDC_ADDRESS = "0x3600000000000000000000000000000000000000" as const;
export const PAYMENT_USDC_DOMAIN = { name: "USDC", version: "2" } as const;
export const RESEARCH_PRICE_UNITS = 10_000n;
