// How the explorer writes numbers and times: pure, so that every page writes them alike
// (web/src/format.test.ts).

const usdcFormat = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const tokenFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 4 });

/** 1234.5 → "1,234.50 USDC"; a decimal string (balances) too. */
export const usdc = (amount: number | string) => `${usdcFormat.format(Number(amount))} USDC`;

/** Outcome tokens: up to 4 decimals. */
export const tokens = (amount: number | string) => tokenFormat.format(Number(amount));

/** A price between 0 and 1 as a percentage with one decimal: 0.6234 → "62.3%". */
export const price = (value: number) => `${(value * 100).toFixed(1)}%`;

/** A probability-like figure as a whole percentage: 0.7 → "70%". */
export const percent = (value: number) => `${Math.round(value * 100)}%`;

/** Signed USDC for profits and losses: "+12.00 USDC", "−3.50 USDC". */
export const signedUsdc = (amount: number) =>
  `${amount > 0 ? "+" : amount < 0 ? "−" : ""}${usdcFormat.format(Math.abs(amount))} USDC`;

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 30],
  ["month", 12],
  ["year", Number.POSITIVE_INFINITY],
];

/** "3 minutes ago", "in 2 days": the largest unit that fits. */
export function timeAgo(iso: string, now = Date.now()): string {
  let value = (Date.parse(iso) - now) / 1000;
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return relative.format(Math.round(value), unit);
    value /= size;
  }
  return iso;
}

/** A date and time in UTC, as the chain's clock has it: "2026-11-22 10:04 UTC". */
export const utc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** "0x1234…abcd" for a long hex string; short ones as they are. */
export const shortHex = (hex: string) => (hex.length > 14 ? `${hex.slice(0, 6)}…${hex.slice(-4)}` : hex);
