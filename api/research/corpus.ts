// The service's own corpus as a research provider: markets with their prices and recent trades,
// journal posts and agents' reasoning, found by PostgreSQL full-text search. Always on.
import { usdcNumber } from "../../constants";
import { anyOfWords, type CorpusMarket, type researchCorpusQueries } from "../db/researchCorpus";
import { contentWords } from "./brief";
import type { ResearchProvider, Source } from "./types";

const LIMITS = { quick: 3, standard: 8 } as const;
const percent = (price: number) => `${Math.round(price * 1000) / 10}%`;
const plain = (headline: string) =>
  headline
    .replace(/<\/?b>/g, "")
    .replace(/\s+/g, " ")
    .trim();

/** A market as prose a finding can quote: its question, its prices and what traders did lately. */
export function describeMarket(market: CorpusMarket): string {
  const prices = market.outcomes.map((outcome, i) => `${outcome} ${percent(market.prices[i] ?? 0)}`).join(", ");
  const trades = market.recent_trades
    .map(
      (trade) =>
        `${trade.is_buy ? "bought" : "sold"} ${trade.outcome} for ${usdcNumber(trade.usdc_amount)} USDC at ${percent(trade.avg_price)}`,
    )
    .join("; ");
  return [
    `${market.title}.`,
    market.description ? `${market.description.trim().replace(/[.!?]?$/, ".")}` : "",
    `The market prices ${market.title.replace(/[?.!]$/, "")} at ${prices} (${market.status}, ${usdcNumber(market.volume)} USDC traded in ${market.trade_count} trades).`,
    trades ? `Recent trades on ${market.title.replace(/[?.!]$/, "")}: ${trades}.` : "",
  ]
    .filter(Boolean)
    .join(" ");
}

export function corpusProvider(corpus: ReturnType<typeof researchCorpusQueries>, budgetMs = 10_000): ResearchProvider {
  return {
    name: "corpus",
    budgetMs,
    async search(question, { depth }) {
      const words = anyOfWords(contentWords(question));
      if (!words) return [];
      const limit = LIMITS[depth];
      const [markets, posts, reasoning] = await Promise.all([
        corpus.markets(words, limit),
        corpus.posts(words, limit),
        corpus.reasoning(words, limit),
      ]);
      const sources: Source[] = [
        ...markets.map((market) => ({
          title: market.title,
          url: `/api/markets/${market.slug}`,
          source: "corpus",
          snippet: describeMarket(market),
        })),
        ...posts.map((post) => ({
          title: post.title,
          url: `/api/blog/${post.id}`,
          source: "corpus",
          snippet: `${post.excerpt} ${plain(post.headline)}`.trim(),
        })),
        ...reasoning.map((comment) => ({
          title: `Agent reasoning on ${comment.target_type} ${comment.target_id}`,
          url: `/api/comments?target_type=${comment.target_type}&target_id=${encodeURIComponent(comment.target_id)}`,
          source: "corpus",
          snippet: plain(comment.headline),
        })),
      ];
      return sources;
    },
  };
}
