// Buying and selling: the market contract's quote (GET /api/trade/quote) is shown for exactly what
// the form holds before the button sends it, the order carries the quote's average price with 2 %
// slack as its limit, and the transaction's status is followed until the indexer confirms it.
import type { components } from "../../api/client";
import { ApiFailure, api, read } from "./api";
import { h } from "./dom";
import { price, tokens, usdc, utc } from "./format";

type Market = Pick<components["schemas"]["MarketListEntry"], "slug" | "title" | "outcomes" | "status">;
type Quote = components["schemas"]["TradeQuote"];
type Side = "buy" | "sell";

/** How far the fill may be from the quote before the trade reverts, spending nothing. */
export const SLIPPAGE = 0.02;

/** The limit price sent with an order: the quote's average, worse by SLIPPAGE, within (0, 1]. */
export function limitPrice(side: Side, avgPrice: number): number {
  const limit = side === "buy" ? Math.min(1, avgPrice * (1 + SLIPPAGE)) : avgPrice * (1 - SLIPPAGE);
  return Number(Math.max(limit, 1e-6).toFixed(6));
}

/** A decimal amount with at most 6 places, as the API accepts; undefined otherwise. */
export function parseAmount(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d+(\.\d{1,6})?$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value > 0 ? value : undefined;
}

const POLL_MS = 400;

/** Follows a transaction with GET /api/trade/status/{txId}, listing each status as it is seen. */
export function trackTransaction(list: HTMLElement, label: string, txId: string, onSettled: () => void) {
  const timeline = h("ol", { class: "timeline" });
  const current = h("strong", { class: "tx-status", "data-status": "pending" }, "pending");
  const row = h(
    "li",
    { "data-tx": txId },
    h("span", null, label, " — "),
    current,
    timeline,
    h("code", { class: "hash", title: "user operation hash" }, txId),
  );
  list.prepend(row);
  const mark = (status: string, detail: string) => {
    current.dataset.status = status;
    current.textContent = status;
    timeline.append(h("li", { "data-status": status }, `${status} ${detail}`));
  };
  mark("pending", `since ${new Date().toISOString().slice(11, 19)} UTC`);
  const poll = async () => {
    try {
      const status = await read(api().GET("/api/trade/status/{txId}", { params: { path: { txId } } }));
      if (status.status === "pending") return void setTimeout(poll, POLL_MS);
      mark(
        status.status,
        status.status === "confirmed"
          ? `in block ${status.blockNumber}${status.confirmedAt ? ` at ${utc(status.confirmedAt)}` : ""}`
          : (status.error ?? ""),
      );
      onSettled();
    } catch (error) {
      // A status read that fails (the API restarting) is tried again; the transaction goes on.
      if (error instanceof ApiFailure && error.status < 500) return mark("unknown", error.message);
      setTimeout(poll, POLL_MS * 5);
    }
  };
  setTimeout(poll, POLL_MS);
}

export function tradeForm(options: {
  markets: Market[];
  /** The market the form starts on (the market page's own). */
  slug?: string;
  onSettled: () => void;
}): HTMLElement {
  const markets = options.markets.filter((market) => market.status === "active");
  if (markets.length === 0) return h("p", { class: "empty" }, "No market is open for trading.");
  const uid = Math.random().toString(36).slice(2, 8);
  const id = (name: string) => `${name}-${uid}`;
  const marketSelect = h(
    "select",
    { id: id("market"), name: "market" },
    ...markets.map((market) =>
      h("option", { value: market.slug, selected: market.slug === options.slug }, market.title),
    ),
  );
  const outcomeSelect = h("select", { id: id("outcome"), name: "outcome" });
  const sideInputs = (["buy", "sell"] as const).map((side) =>
    h("input", { type: "radio", name: id("side"), value: side, id: id(side), checked: side === "buy" }),
  );
  const amountLabel = h("label", { for: id("amount") });
  const amount = h("input", {
    id: id("amount"),
    name: "amount",
    inputmode: "decimal",
    autocomplete: "off",
    value: "10",
    required: true,
  });
  const quoteOut = h("output", {
    class: "quote",
    for: `${id("market")} ${id("outcome")} ${id("amount")}`,
    "aria-live": "polite",
  });
  const submit = h("button", { type: "submit", disabled: true }, "Buy");
  const transactions = h("ol", { class: "transactions", "aria-label": "Your transactions" });

  const market = () => markets.find((entry) => entry.slug === marketSelect.value)!;
  const side = (): Side => (sideInputs[1]!.checked ? "sell" : "buy");
  const fillOutcomes = () => {
    const previous = outcomeSelect.value;
    outcomeSelect.replaceChildren(
      ...market().outcomes.map((outcome) => h("option", { value: outcome, selected: outcome === previous }, outcome)),
    );
  };

  let quoted: { key: string; quote: Quote } | undefined;
  let generation = 0;
  const keyOf = () => JSON.stringify([marketSelect.value, outcomeSelect.value, side(), amount.value.trim()]);
  const requote = async () => {
    const current = ++generation;
    quoted = undefined;
    submit.disabled = true;
    submit.textContent = side() === "buy" ? "Buy" : "Sell";
    amountLabel.textContent = side() === "buy" ? "USDC to spend (fee included)" : "Tokens to sell";
    const value = parseAmount(amount.value);
    if (value === undefined) {
      quoteOut.textContent = "Enter a positive amount with at most 6 decimals.";
      return;
    }
    quoteOut.textContent = "Quoting…";
    const key = keyOf();
    try {
      const quote = await read(
        api().GET("/api/trade/quote", {
          params: {
            query: { marketSlug: marketSelect.value, outcome: outcomeSelect.value, side: side(), amount: value },
          },
        }),
      );
      if (current !== generation) return;
      quoted = { key, quote };
      quoteOut.replaceChildren(
        side() === "buy"
          ? `You pay ${usdc(quote.usdc)} and receive ${tokens(quote.tokens)} ${quote.outcome} tokens`
          : `You sell ${tokens(quote.tokens)} ${quote.outcome} tokens and receive ${usdc(quote.usdc)}`,
        h("br"),
        `average price ${price(quote.avgPrice)} (now ${price(quote.price)}), fee ${usdc(quote.fee)}; refused if the fill is more than 2% worse`,
      );
      quoteOut.dataset.tokens = String(quote.tokens);
      quoteOut.dataset.usdc = String(quote.usdc);
      submit.disabled = false;
    } catch (error) {
      if (current === generation) quoteOut.textContent = `No quote: ${(error as Error).message}`;
    }
  };

  let pause: ReturnType<typeof setTimeout> | undefined;
  const requoteSoon = () => {
    clearTimeout(pause);
    submit.disabled = true;
    pause = setTimeout(requote, 250);
  };
  marketSelect.addEventListener("change", () => {
    fillOutcomes();
    void requote();
  });
  outcomeSelect.addEventListener("change", () => void requote());
  for (const input of sideInputs) input.addEventListener("change", () => void requote());
  amount.addEventListener("input", requoteSoon);

  const form = h(
    "form",
    {
      class: "trade-form",
      onsubmit: async (event) => {
        event.preventDefault();
        if (!quoted || quoted.key !== keyOf()) return void requote();
        const { quote } = quoted;
        submit.disabled = true;
        const idempotency = { headers: { "Idempotency-Key": crypto.randomUUID() } };
        try {
          const sent =
            quote.side === "buy"
              ? await read(
                  api().POST("/api/trade/buy", {
                    body: {
                      marketSlug: quote.marketSlug,
                      outcome: quote.outcome,
                      amount: quote.amount,
                      maxPrice: limitPrice("buy", quote.avgPrice),
                    },
                    ...idempotency,
                  }),
                )
              : await read(
                  api().POST("/api/trade/sell", {
                    body: {
                      marketSlug: quote.marketSlug,
                      outcome: quote.outcome,
                      tokenAmount: quote.amount,
                      minPrice: limitPrice("sell", quote.avgPrice),
                    },
                    ...idempotency,
                  }),
                );
          const label =
            quote.side === "buy"
              ? `Buy ${quote.outcome} for ${usdc(quote.amount)} in ${market().title}`
              : `Sell ${tokens(quote.amount)} ${quote.outcome} in ${market().title}`;
          trackTransaction(transactions, label, sent.txId, () => {
            options.onSettled();
            void requote();
          });
        } catch (error) {
          quoteOut.replaceChildren(
            h("span", { class: "error", role: "alert" }, `Not sent: ${(error as Error).message}`),
          );
        }
        void requote();
      },
    },
    h(
      "fieldset",
      null,
      h("legend", null, "Trade"),
      h("div", { class: "field" }, h("label", { for: id("market") }, "Market"), marketSelect),
      h("div", { class: "field" }, h("label", { for: id("outcome") }, "Outcome"), outcomeSelect),
      h(
        "fieldset",
        { class: "side" },
        h("legend", null, "Side"),
        ...sideInputs.map((input, index) => h("label", { for: input.id }, input, index === 0 ? " Buy" : " Sell")),
      ),
      h("div", { class: "field" }, amountLabel, amount),
      quoteOut,
      submit,
    ),
    h("h3", null, "Transactions"),
    transactions,
  );
  fillOutcomes();
  void requote();
  return form;
}
