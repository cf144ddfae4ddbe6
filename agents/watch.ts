// The markets as the agents see them, read once per round for all of them through the public API:
// the active markets and their prices, each market's curve (b, fee) read once, and the prices
// observed over time. A market seen for the first time gets its recent history from the API's hourly
// price series (each close counted from the end of its hour), so that a restarted runner does not
// start blind.
import type { AgentApi } from "./api";
import type { MarketSnapshot, PricePoint } from "./strategy";

const HOUR_MS = 3600_000;

type Curve = { b: number; feeBps: number };

export type MarketWatch = ReturnType<typeof marketWatch>;

export function marketWatch(options: {
  api: AgentApi;
  /** How much history is kept. */
  historyMs: number;
  /** Only these markets, by slug; every active market when absent. */
  markets?: string[];
}) {
  const curves = new Map<string, Curve>();
  const histories = new Map<string, PricePoint[]>();

  async function firstSight(slug: string, outcomes: string[], now: number): Promise<void> {
    const detail = await options.api.market(slug);
    curves.set(slug, { b: detail.b, feeBps: detail.feeBps });
    const from = new Date(now - options.historyMs).toISOString();
    const series = await options.api.priceHistory(slug, from);
    histories.set(
      slug,
      series.prices.map((point) => ({
        at: Math.min(now, Date.parse(String(point.timestamp)) + HOUR_MS),
        prices: outcomes.map((name) => Number(point[name])),
      })),
    );
  }

  function observe(slug: string, prices: number[], now: number): PricePoint[] {
    const history = histories.get(slug) ?? [];
    const last = history.at(-1);
    if (!last || last.prices.some((price, i) => price !== prices[i])) history.push({ at: now, prices });
    // Drop what is older than the window, but the point in force at its start.
    const start = now - options.historyMs;
    while (history.length > 1 && history[1]!.at <= start) history.shift();
    histories.set(slug, history);
    return history;
  }

  return {
    /** The active markets now, with their history up to now. */
    async refresh(now = Date.now()): Promise<MarketSnapshot[]> {
      const { markets } = await options.api.activeMarkets();
      const chosen = markets.filter(
        (market) => market.status === "active" && (!options.markets || options.markets.includes(market.slug)),
      );
      const snapshots: MarketSnapshot[] = [];
      for (const market of chosen) {
        if (!curves.has(market.slug)) await firstSight(market.slug, market.outcomes, now);
        const prices = market.outcomes.map((name) => market.prices[name] ?? 0);
        snapshots.push({
          slug: market.slug,
          title: market.title,
          outcomes: market.outcomes,
          prices,
          ...curves.get(market.slug)!,
          closesAt: Date.parse(market.closesAt),
          history: [...observe(market.slug, prices, now)],
        });
      }
      return snapshots;
    },
  };
}
