// The markets a fresh local stack opens, so there is something real to browse and trade.
const DAY = 24 * 60 * 60;

export type DemoMarket = {
  slug: string;
  title: string;
  description: string;
  outcomes: string[];
  closesInSeconds: number;
  /** The LMSR parameter b, in USDC. */
  bUsdc: number;
  feeBps: number;
};

export const DEMO_MARKETS: DemoMarket[] = [
  {
    slug: "fed-cuts-rates-march-2027",
    title: "Will the Federal Reserve cut rates at its March 2027 meeting?",
    description:
      "Resolves Yes if the FOMC statement released at the end of the March 2027 meeting lowers the target range for the federal funds rate; No otherwise.",
    outcomes: ["Yes", "No"],
    closesInSeconds: 120 * DAY,
    bUsdc: 1_000,
    feeBps: 50,
  },
  {
    slug: "btc-above-150k-end-of-2026",
    title: "Will Bitcoin close 2026 above $150,000?",
    description:
      "Resolves Yes if the BTC/USD daily close on December 31, 2026 (UTC), as published by a major index provider, is above $150,000; No otherwise.",
    outcomes: ["Yes", "No"],
    closesInSeconds: 39 * DAY,
    bUsdc: 2_000,
    feeBps: 50,
  },
  {
    slug: "us-cpi-march-2027",
    title: "What will US year-over-year CPI inflation be for March 2027?",
    description:
      "Resolves to the band containing the all-items CPI-U 12-month change for March 2027 in the BLS release of April 2027.",
    outcomes: ["Below 2.5%", "2.5% to 3.5%", "Above 3.5%"],
    closesInSeconds: 150 * DAY,
    bUsdc: 1_500,
    feeBps: 75,
  },
  {
    slug: "top-ai-lab-june-2027",
    title: "Which lab will lead the LMArena text leaderboard on June 30, 2027?",
    description:
      "Resolves to the organisation whose model holds the first place on the LMArena text leaderboard on June 30, 2027 at 12:00 UTC; Other for any organisation not listed.",
    outcomes: ["OpenAI", "Google", "Anthropic", "Other"],
    closesInSeconds: 220 * DAY,
    bUsdc: 1_000,
    feeBps: 100,
  },
];
