// A market: its prices, a price chart by 1h, 4h or 1d from the prices endpoint, its recent trades
// (kept current by the live stream), its comments and duels, and a trade form for signed-in users.
import type { components } from "../../../api/client";
import { api, read } from "../api";
import { commentsSection } from "../comments";
import { failure, fill, h, loading, table } from "../dom";
import { price, shortHex, timeAgo, usdc, utc } from "../format";
import { href } from "../router";
import { session } from "../session";
import type { TradeEvent } from "../stream";
import { onTrade } from "../ticker";
import { tradeForm } from "../tradeForm";
import { outcomePrices, statusBadge } from "./markets";
import type { Page } from "./page";

type Interval = "1h" | "4h" | "1d";
type Trade = components["schemas"]["RecentTrade"];

const INTERVALS: Interval[] = ["1h", "4h", "1d"];

function tradesTable(trades: Trade[]) {
  return table({
    caption: "Newest first",
    items: trades,
    empty: "No trades yet.",
    rowKey: (trade) => trade.txId,
    columns: [
      {
        label: "When",
        cell: (trade) => h("time", { datetime: trade.timestamp, title: trade.timestamp }, timeAgo(trade.timestamp)),
      },
      { label: "Side", cell: (trade) => h("span", { class: `side ${trade.side}` }, trade.side) },
      { label: "Outcome", cell: (trade) => trade.outcome },
      { label: "Amount", numeric: true, cell: (trade) => usdc(trade.amount) },
      { label: "Price", numeric: true, cell: (trade) => price(trade.price) },
      { label: "Trader", cell: (trade) => h("code", null, trade.trader) },
    ],
  });
}

const fromEvent = (event: TradeEvent): Trade => ({
  txId: event.txId,
  marketSlug: event.marketSlug,
  outcome: event.outcome,
  side: event.action === "BUY" ? "buy" : "sell",
  amount: Number(event.amount),
  price: event.entryPrice,
  trader: shortHex(event.userId),
  timestamp: event.createdAt,
});

export async function marketPage(slug: string, initial: Interval): Promise<Page> {
  const [market, recent] = await Promise.all([
    read(api().GET("/api/markets/{slug}", { params: { path: { slug } } })),
    read(api().GET("/api/trades/recent", { params: { query: { marketSlug: slug, limit: 25 } } })),
  ]);
  let interval = initial;
  let trades = recent.trades;
  const disposers: (() => void)[] = [];

  const prices = h("div", { class: "live-prices" }, outcomePrices(market));
  const volume = h("dd", { class: "volume" }, usdc(market.volume));
  const tradesBox = h("div", { class: "trades-box" }, tradesTable(trades));
  const chartBox = h("div", { class: "chart", role: "img", "aria-label": "Price chart" });
  const caption = h("figcaption");
  const legend = h("ul", { class: "legend" });
  const buttons = INTERVALS.map((value) =>
    h(
      "button",
      {
        type: "button",
        "aria-pressed": String(value === interval),
        "data-interval": value,
        onclick: () => {
          interval = value;
          for (const button of buttons) button.setAttribute("aria-pressed", String(button.dataset.interval === value));
          history.replaceState(null, "", href({ page: "market", slug, interval }));
          void drawChart();
        },
      },
      value,
    ),
  );

  // The chart library is a chunk of its own, loaded with the first market page.
  const chartModule = import("../chart");
  let chart: Awaited<ReturnType<typeof import("../chart")["priceChart"]>> | undefined;
  const drawChart = async () => {
    try {
      const [{ priceChart }, series] = await Promise.all([
        chartModule,
        read(api().GET("/api/markets/{slug}/prices", { params: { path: { slug }, query: { interval } } })),
      ]);
      chart ??= priceChart(chartBox, market.outcomes);
      chart.show(series.prices as never);
      chartBox.dataset.points = String(series.prices.length);
      chartBox.dataset.interval = interval;
      const last = series.prices.at(-1);
      caption.textContent = last
        ? `${series.prices.length} ${interval} ${series.prices.length === 1 ? "point" : "points"} to ${utc(String(last.timestamp))}: ${market.outcomes.map((outcome) => `${outcome} ${price(Number(last[outcome]))}`).join(", ")}`
        : "No prices yet: the market has no contract.";
      fill(
        legend,
        ...market.outcomes.map((outcome, index) =>
          h("li", null, h("span", { class: `swatch swatch-${index}` }), outcome),
        ),
      );
    } catch (error) {
      fill(caption, failure(error));
    }
  };
  disposers.push(() => chart?.dispose());

  // New trades of this market: into the table at once, prices and chart refreshed at most once a second.
  let refresh: ReturnType<typeof setTimeout> | undefined;
  disposers.push(
    onTrade((event) => {
      if (event.marketSlug !== slug) return;
      trades = [fromEvent(event), ...trades.filter((trade) => trade.txId !== event.txId)].slice(0, 25);
      fill(tradesBox, tradesTable(trades));
      refresh ??= setTimeout(async () => {
        refresh = undefined;
        const fresh = await read(api().GET("/api/markets/{slug}", { params: { path: { slug } } })).catch(
          () => undefined,
        );
        if (fresh) {
          fill(prices, outcomePrices(fresh));
          volume.textContent = usdc(fresh.volume);
        }
        void drawChart();
      }, 1_000);
    }),
    () => clearTimeout(refresh),
  );

  const comments = h("div", null, loading("comments"));
  commentsSection({ type: "market", id: slug }).then(
    (section) => fill(comments, section),
    (error) => fill(comments, failure(error)),
  );

  const trading = h(
    "section",
    { class: "trade", "aria-labelledby": "trade-title" },
    h("h2", { id: "trade-title" }, "Trade"),
  );
  if (!session.token())
    trading.append(
      h("p", null, h("a", { href: href({ page: "wallet" }) }, "Sign in on the wallet page"), " to buy and sell."),
    );
  else if (market.status !== "active")
    trading.append(h("p", null, `The market is ${market.status}: trading is closed.`));
  else trading.append(tradeForm({ markets: [market], slug, onSettled: () => undefined }));

  const content = h(
    "article",
    { class: "market", "data-slug": slug },
    h("p", { class: "crumbs" }, h("a", { href: href({ page: "markets" }) }, "Markets")),
    h("h1", { tabindex: -1 }, market.title),
    h(
      "p",
      { class: "meta" },
      statusBadge(market.status),
      market.resolvedOutcome ? ` resolved: ${market.resolvedOutcome}` : "",
      ` · closes ${utc(market.closesAt)}`,
    ),
    h("p", { class: "description" }, market.description),
    prices,
    h(
      "dl",
      { class: "figures" },
      h("div", null, h("dt", null, "Volume"), volume),
      h("div", null, h("dt", null, "Liquidity"), h("dd", null, usdc(market.liquidity))),
      h(
        "div",
        null,
        h("dt", null, "Contract"),
        h(
          "dd",
          null,
          market.contractAddress
            ? h("code", { title: market.contractAddress }, shortHex(market.contractAddress))
            : "not deployed",
        ),
      ),
    ),
    h(
      "section",
      { class: "history", "aria-labelledby": "chart-title" },
      h("h2", { id: "chart-title" }, "Price history"),
      h("div", { class: "intervals", role: "group", "aria-label": "Interval" }, ...buttons),
      h("figure", null, chartBox, legend, caption),
      h(
        "p",
        { class: "attribution" },
        "Chart by ",
        h("a", { href: "https://www.tradingview.com/", rel: "noopener noreferrer" }, "TradingView Lightweight Charts™"),
      ),
    ),
    h(
      "section",
      { class: "recent", "aria-labelledby": "trades-title" },
      h("h2", { id: "trades-title" }, `Recent trades (${recent.total})`),
      tradesBox,
    ),
    trading,
    comments,
  );
  void drawChart();
  return {
    title: market.title,
    content,
    dispose: () => {
      for (const dispose of disposers) dispose();
    },
  };
}
