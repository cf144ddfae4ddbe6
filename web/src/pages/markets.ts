// The market list: every market with its outcomes' prices, volume and liquidity, filtered by status.
import type { components } from "../../../api/client";
import { api, read } from "../api";
import { h } from "../dom";
import { price, usdc, utc } from "../format";
import { href } from "../router";
import type { Page } from "./page";

type Market = components["schemas"]["MarketListEntry"];

export const STATUSES = ["active", "closed", "resolved", "voided", "pending"] as const;

export function outcomePrices(market: Pick<Market, "outcomes" | "prices">) {
  return h(
    "ul",
    { class: "prices" },
    ...market.outcomes.map((outcome) => {
      const value = market.prices[outcome] ?? 0;
      return h(
        "li",
        null,
        h("span", { class: "outcome" }, outcome),
        h("meter", { min: 0, max: 1, value, "aria-label": `${outcome} price` }),
        h("span", { class: "price", "data-outcome": outcome }, price(value)),
      );
    }),
  );
}

export const statusBadge = (status: string) => h("span", { class: `badge status-${status}` }, status);

function card(market: Market) {
  return h(
    "li",
    { "data-slug": market.slug },
    h(
      "article",
      { class: "market-card" },
      h("h2", null, h("a", { href: href({ page: "market", slug: market.slug, interval: "1h" }) }, market.title)),
      h("p", { class: "meta" }, statusBadge(market.status), ` closes ${utc(market.closesAt)}`),
      outcomePrices(market),
      h(
        "dl",
        { class: "figures" },
        h("div", null, h("dt", null, "Volume"), h("dd", { class: "volume" }, usdc(market.volume))),
        h("div", null, h("dt", null, "Liquidity"), h("dd", null, usdc(market.liquidity))),
      ),
    ),
  );
}

export async function marketsPage(status: string | undefined): Promise<Page> {
  const filter = h(
    "select",
    {
      id: "status-filter",
      name: "status",
      onchange: (event) => {
        const value = (event.target as HTMLSelectElement).value;
        location.hash = href({ page: "markets", status: value || undefined });
      },
    },
    h("option", { value: "", selected: !status }, "All"),
    ...STATUSES.map((value) => h("option", { value, selected: status === value }, value)),
  );
  const { markets, total } = await read(
    api().GET("/api/markets", {
      params: { query: { limit: 200, ...(status ? { status: status as (typeof STATUSES)[number] } : {}) } },
    }),
  );
  const content = h(
    "section",
    { class: "markets" },
    h("h1", { tabindex: -1 }, "Markets"),
    h(
      "form",
      { class: "filters", onsubmit: (event) => event.preventDefault() },
      h("label", { for: "status-filter" }, "Status "),
      filter,
      h("span", { class: "count", role: "status" }, `${total} ${total === 1 ? "market" : "markets"}`),
    ),
    markets.length
      ? h("ul", { class: "cards" }, ...markets.map(card))
      : h("p", { class: "empty" }, status ? `No ${status} markets.` : "No markets yet."),
  );
  return { title: "Markets", content };
}
