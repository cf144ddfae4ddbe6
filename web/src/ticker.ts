// The live trade ticker beside every page: the latest trades from GET /api/trades/recent, then each
// trade the stream announces, newest first, without reloading. Pages subscribe to the same trades
// (the market page adds its own market's).
import { api, read } from "./api";
import { h } from "./dom";
import { price, timeAgo, usdc } from "./format";
import { href } from "./router";
import { LiveStream, type StreamStatus, type TradeEvent } from "./stream";

const SHOWN = 12;
const listeners = new Set<(trade: TradeEvent) => void>();

/** Calls `listener` with every trade the stream announces from now on; returns the unsubscribe. */
export function onTrade(listener: (trade: TradeEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

type Row = {
  key: string;
  txId: string;
  slug: string;
  title: string;
  side: string;
  outcome: string;
  amount: number;
  price: number;
  at: string;
};

function item(row: Row) {
  return h(
    "li",
    { "data-id": row.key, "data-tx": row.txId, class: row.side },
    h("a", { href: href({ page: "market", slug: row.slug, interval: "1h" }) }, row.title),
    h(
      "span",
      { class: "what" },
      h("strong", null, row.side === "buy" ? "Buy" : "Sell"),
      ` ${row.outcome} · ${usdc(row.amount)} at ${price(row.price)}`,
    ),
    h("time", { datetime: row.at, title: row.at }, timeAgo(row.at)),
  );
}

export function startTicker(aside: HTMLElement) {
  const status = h("p", { class: "stream-status", role: "status", "data-status": "connecting" }, "Connecting…");
  const list = h("ol", { class: "trades", "aria-live": "polite", "aria-relevant": "additions" });
  aside.replaceChildren(h("h2", { id: "ticker-title" }, "Live trades"), status, list);
  const shownTx = new Set<string>();

  const add = (row: Row, atTop: boolean) => {
    if (shownTx.has(row.key) || shownTx.has(row.txId)) return;
    shownTx.add(row.key);
    shownTx.add(row.txId);
    if (atTop) list.prepend(item(row));
    else list.append(item(row));
    while (list.children.length > SHOWN) list.lastElementChild?.remove();
  };

  Promise.all([
    read(api().GET("/api/trades/recent", { params: { query: { limit: SHOWN } } })),
    // Recent trades name their market by slug; the stream's by title, as the ticker shows them.
    read(api().GET("/api/markets", { params: { query: { limit: 200 } } })),
  ])
    .then(([{ trades }, { markets }]) => {
      const titles = new Map(markets.map((market) => [market.slug, market.title]));
      for (const trade of trades)
        add(
          {
            key: trade.txId,
            txId: trade.txId,
            slug: trade.marketSlug,
            title: titles.get(trade.marketSlug) ?? trade.marketSlug,
            side: trade.side,
            outcome: trade.outcome,
            amount: trade.amount,
            price: trade.price,
            at: trade.timestamp,
          },
          false,
        );
    })
    .catch(() => {
      // The stream still brings new trades; the ticker only starts emptier.
    });

  const labels: Record<StreamStatus, string> = {
    connecting: "Connecting…",
    live: "Live",
    reconnecting: "Reconnecting… (missed trades follow)",
  };
  const stream = new LiveStream({
    url: "/api/trade/stream?types=trade",
    onStatus: (value) => {
      status.dataset.status = value;
      status.textContent = labels[value];
    },
    onTrade: (trade) => {
      add(
        {
          key: trade.id,
          txId: trade.txId,
          slug: trade.marketSlug,
          title: trade.question,
          side: trade.action === "BUY" ? "buy" : "sell",
          outcome: trade.outcome,
          amount: Number(trade.amount),
          price: trade.entryPrice,
          at: trade.createdAt,
        },
        true,
      );
      for (const listener of listeners) listener(trade);
    },
    onRetract: (retract) => {
      const row = list.querySelector(`li[data-id="${CSS.escape(retract.id)}"]`);
      row?.classList.add("retracted");
      row?.append(h("span", { class: "note" }, "undone by a chain reorganisation"));
    },
  });
  stream.start();
  // Times drift into "a minute ago" as the page stays open.
  setInterval(() => {
    for (const time of list.querySelectorAll("time")) time.textContent = timeAgo(time.dateTime);
  }, 15_000);
  return { stop: () => stream.stop() };
}
