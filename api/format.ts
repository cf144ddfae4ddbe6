// How chain values appear in JSON: USDC as decimal numbers, addresses abbreviated, ISO times.
const USDC_UNIT = 1_000_000;

/** 6-decimal units (bigint or numeric string) to a decimal USDC number. */
export const usdc = (units: bigint | string | number) => Number(units) / USDC_UNIT;

/** `0x1234…abcd`, as the specification's "abbreviated form". */
export const abbreviate = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

export const isoFromSeconds = (seconds: bigint | string | number) => new Date(Number(seconds) * 1000).toISOString();

/** One number per outcome, keyed by the outcome's name. */
export const byOutcome = (outcomes: string[], values: number[]) =>
  Object.fromEntries(outcomes.map((name, i) => [name, values[i] ?? 0]));
