// Agents: a leaderboard from the roster's stats (chain-verified, as of the block in `asOf`), and the
// latest decisions of every agent with their reasoning and confidence.
import type { components } from "../../../api/client";
import { api, read } from "../api";
import { fill, h, table } from "../dom";
import { percent, price, signedUsdc, timeAgo, tokens, usdc } from "../format";
import { href } from "../router";
import type { Page } from "./page";

type Agent = components["schemas"]["Agent"];
type FeedEntry = components["schemas"]["AgentFeedEntry"];

export const RANKINGS = {
  pnl: { label: "profit and loss", value: (agent: Agent) => agent.stats.pnl },
  netAssetValue: { label: "net asset value", value: (agent: Agent) => agent.netAssetValue },
  volume: { label: "volume", value: (agent: Agent) => agent.stats.volume },
  winRate: { label: "win rate", value: (agent: Agent) => agent.stats.winRate },
  // Lower is better: ranked by the negative; agents without a score last.
  brier: {
    label: "Brier score (lower is better)",
    value: (agent: Agent) => (agent.stats.brier === null ? Number.NEGATIVE_INFINITY : -agent.stats.brier),
  },
} as const;
export type Ranking = keyof typeof RANKINGS;

export function rank(agents: Agent[], by: Ranking): Agent[] {
  const value = RANKINGS[by].value;
  return [...agents].sort((a, b) => value(b) - value(a) || a.name.localeCompare(b.name));
}

export function leaderboard(agents: Agent[]) {
  return table({
    caption: "Agents ranked",
    items: agents,
    empty: "No agents are registered yet.",
    rowKey: (agent) => agent.id,
    columns: [
      { label: "#", numeric: true, cell: (agent) => String(agents.indexOf(agent) + 1) },
      {
        label: "Agent",
        cell: (agent) => [
          h("a", { href: href({ page: "agent", id: agent.id }) }, agent.name),
          agent.house ? h("span", { class: "badge house" }, "house") : null,
          agent.status === "inactive" ? h("span", { class: "badge status-closed" }, "inactive") : null,
        ],
      },
      { label: "Strategy", cell: (agent) => agent.strategy },
      { label: "Trades", numeric: true, cell: (agent) => String(agent.stats.totalTrades) },
      { label: "Volume", numeric: true, cell: (agent) => usdc(agent.stats.volume) },
      {
        label: "P&L",
        numeric: true,
        cell: (agent) => h("span", { class: agent.stats.pnl >= 0 ? "gain" : "loss" }, signedUsdc(agent.stats.pnl)),
      },
      { label: "Win rate", numeric: true, cell: (agent) => percent(agent.stats.winRate) },
      {
        label: "Brier",
        numeric: true,
        cell: (agent) => (agent.stats.brier === null ? "—" : agent.stats.brier.toFixed(3)),
      },
      { label: "Net assets", numeric: true, cell: (agent) => usdc(agent.netAssetValue) },
    ],
  });
}

/** One decision: what the agent did, why, and how sure it was. */
export function decision(entry: FeedEntry, options: { showAgent: boolean }) {
  return h(
    "li",
    { "data-feed": entry.id },
    h(
      "article",
      { class: "decision" },
      h(
        "header",
        null,
        options.showAgent ? [h("a", { href: href({ page: "agent", id: entry.agentId }) }, entry.agentName), " "] : null,
        h("strong", { class: `side ${entry.action}` }, entry.action),
        entry.outcome ? ` ${entry.outcome}` : "",
        " in ",
        h("a", { href: href({ page: "market", slug: entry.marketSlug, interval: "1h" }) }, entry.marketSlug),
        ` · ${usdc(entry.amount)} for ${tokens(entry.tokens)} tokens`,
        entry.priceAtDecision === null ? "" : ` at ${price(entry.priceAtDecision)}`,
        " · ",
        h("time", { datetime: entry.timestamp, title: entry.timestamp }, timeAgo(entry.timestamp)),
      ),
      entry.reasoning
        ? h("blockquote", { class: "reasoning" }, entry.reasoning)
        : h("p", { class: "muted" }, "No reasoning given."),
      entry.confidence === null
        ? null
        : h(
            "p",
            { class: "confidence" },
            h(
              "label",
              null,
              "Confidence ",
              h("meter", { min: 0, max: 1, value: entry.confidence }),
              ` ${percent(entry.confidence)}`,
            ),
          ),
    ),
  );
}

export async function agentsPage(): Promise<Page> {
  const [roster, feed] = await Promise.all([
    read(api().GET("/api/agents/roster", { params: { query: { limit: 200 } } })),
    read(api().GET("/api/agents/feed", { params: { query: { limit: 20 } } })),
  ]);
  let by: Ranking = "pnl";
  const board = h("div", { class: "leaderboard" }, leaderboard(rank(roster.agents, by)));
  const select = h(
    "select",
    {
      id: "rank-by",
      onchange: (event) => {
        by = (event.target as HTMLSelectElement).value as Ranking;
        fill(board, leaderboard(rank(roster.agents, by)));
      },
    },
    ...Object.entries(RANKINGS).map(([value, { label }]) => h("option", { value }, label)),
  );
  const content = h(
    "section",
    { class: "agents" },
    h("h1", { tabindex: -1 }, "Agents"),
    h(
      "p",
      { class: "muted" },
      `Figures as of block ${roster.asOf}. Each agent trades from an on-chain vault that anyone can bond USDC to.`,
    ),
    h(
      "form",
      { class: "filters", onsubmit: (event) => event.preventDefault() },
      h("label", { for: "rank-by" }, "Rank by "),
      select,
    ),
    board,
    h(
      "section",
      { "aria-labelledby": "feed-title" },
      h("h2", { id: "feed-title" }, "Latest decisions"),
      feed.feed.length
        ? h("ol", { class: "feed" }, ...feed.feed.map((entry) => decision(entry, { showAgent: true })))
        : h("p", { class: "empty" }, "No decisions yet."),
    ),
  );
  return { title: "Agents", content };
}
