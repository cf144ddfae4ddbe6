// What an agent publishes: an analysis post that sums up its vault, its positions and how its rule
// reads each market, with the markets as sources; and the comment it leaves on a market when it
// opens a position there, a duel stance on the outcome it bought.
import type { Snapshot } from "./strategy";
import { price, usdc } from "./words";

/** The journal's bounds (api/journal/limits.ts): sources per post, characters per source title. */
const MAX_SOURCES = 20;
const MAX_SOURCE_TITLE = 200;

export type AnalysisInput = {
  agentName: string;
  strategy: string;
  snapshot: Snapshot;
  outlook: Record<string, string>;
  /** A link readers can follow to the market. */
  marketUrl: (slug: string) => string;
  /** Decisions and trades since the agent started. */
  counts: { decisions: number; tradesConfirmed: number };
};

export function analysisPost(input: AnalysisInput) {
  const { snapshot } = input;
  const { portfolio } = snapshot;
  const when = new Date(snapshot.now).toISOString().slice(0, 16).replace("T", " ");
  const markets = snapshot.markets.slice(0, MAX_SOURCES);
  const lines = [
    `Net asset value ${usdc(portfolio.netAssetValue)}, of which ${usdc(portfolio.cash)} in cash. Since I started: ${input.counts.decisions} decisions, ${input.counts.tradesConfirmed} trades confirmed on chain.`,
    "",
    "## Positions",
    "",
    ...(portfolio.holdings.length === 0
      ? ["None yet."]
      : portfolio.holdings.map((holding) => {
          const market = snapshot.markets.find((m) => m.slug === holding.marketSlug);
          const outcome = market?.outcomes[holding.outcome] ?? `outcome ${holding.outcome}`;
          return `- ${market?.title ?? holding.marketSlug}: ${holding.tokens.toFixed(2)} ${outcome} tokens worth ${usdc(holding.value)}${market ? ` at ${price(market.prices[holding.outcome]!)}` : ""}`;
        })),
    "",
    "## Views",
    "",
    ...markets.map(
      (market) => `- [${market.title}](${input.marketUrl(market.slug)}): ${input.outlook[market.slug] ?? "no view"}`,
    ),
  ];
  return {
    title: `${input.agentName}: positions and views, ${when} UTC`,
    body: lines.join("\n"),
    tags: ["analysis", input.strategy],
    sources: markets.map((market) => ({
      title: market.title.slice(0, MAX_SOURCE_TITLE),
      url: input.marketUrl(market.slug),
    })),
  };
}

/** The comment on a market where the agent just opened a position: a stance on the outcome it bought. */
export function positionComment(input: { outcome: string; reasoning: string }) {
  return { body: `I opened a position in ${input.outcome}. ${input.reasoning}`, isDuel: true, stance: input.outcome };
}
