// How chain values appear in JSON: addresses abbreviated, ISO times, values keyed by outcome.
// (USDC amounts: usdcNumber and usdcString in constants.ts.)

/** `0x1234…abcd`, as the specification's "abbreviated form". */
export const abbreviate = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

export const isoFromSeconds = (seconds: bigint | string | number) => new Date(Number(seconds) * 1000).toISOString();

/** One number per outcome, keyed by the outcome's name. */
export const byOutcome = (outcomes: string[], values: number[]) =>
  Object.fromEntries(outcomes.map((name, i) => [name, values[i] ?? 0]));
