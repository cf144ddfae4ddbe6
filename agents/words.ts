// How figures read in the agents' reasoning, comments and posts.

/** `0.41` */
export const price = (value: number) => value.toFixed(2);

/** `20.00 USDC` */
export const usdc = (value: number) => `${value.toFixed(2)} USDC`;

/** `+27%`, `-8%` (to one decimal below 10%) */
export const percent = (change: number) => {
  const value = change * 100;
  const digits = Math.abs(value) < 10 ? 1 : 0;
  return `${value >= 0 ? "+" : ""}${value.toFixed(digits)}%`;
};

/** `45 s`, `12 min`, `1 h`, `1 h 30 min`, `2 d` */
export function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  return `${Math.round(hours / 24)} d`;
}

/** Amounts the API accepts: USDC to the cent (rounded down), tokens to 6 decimals (rounded down). */
export const centsDown = (value: number) => Math.floor(value * 100 + 1e-9) / 100;
export const tokenUnitsDown = (value: number) => Math.floor(value * 1e6 + 1e-6) / 1e6;

/** A confidence to two decimals within [0, 1]. */
export const confidence = (value: number) => Math.round(Math.min(1, Math.max(0, value)) * 100) / 100;
