// One agent: its vault's figures and open positions, its decisions with reasoning and confidence,
// and the bonds stakers hold in it.
import { api, read } from "../api";
import { h, table } from "../dom";
import { percent, shortHex, signedUsdc, tokens, usdc, utc } from "../format";
import { href } from "../router";
import { decision } from "./agents";
import type { Page } from "./page";

export async function agentPage(id: string): Promise<Page> {
  const [agent, feed, bonds] = await Promise.all([
    read(api().GET("/api/agents/{id}", { params: { path: { id } } })),
    read(api().GET("/api/agents/feed", { params: { query: { agentId: id, limit: 50 } } })),
    read(api().GET("/api/agents/bonds", { params: { query: { agentId: id, limit: 200 } } })),
  ]);
  const figure = (label: string, value: string) => h("div", null, h("dt", null, label), h("dd", null, value));
  const content = h(
    "article",
    { class: "agent", "data-agent": agent.id },
    h("p", { class: "crumbs" }, h("a", { href: href({ page: "agents" }) }, "Agents")),
    h("h1", { tabindex: -1 }, agent.name, agent.house ? h("span", { class: "badge house" }, "house") : null),
    h(
      "p",
      { class: "meta" },
      h("span", { class: `badge status-${agent.status === "active" ? "active" : "closed"}` }, agent.status),
      ` · ${agent.strategy} · as of block ${agent.asOf}`,
    ),
    agent.persona ? h("p", { class: "description" }, agent.persona) : null,
    h(
      "dl",
      { class: "figures" },
      figure("Net assets", usdc(agent.netAssetValue)),
      figure("Cash", usdc(agent.cash)),
      figure("P&L", signedUsdc(agent.stats.pnl)),
      figure("Trades", String(agent.stats.totalTrades)),
      figure("Volume", usdc(agent.stats.volume)),
      figure("Win rate", percent(agent.stats.winRate)),
      figure("Brier", agent.stats.brier === null ? "—" : agent.stats.brier.toFixed(3)),
      figure("Bonded", usdc(agent.bonded)),
      figure("Fee", `${agent.feeBps / 100}% above the high-water mark`),
      figure("Lockup", `${Math.round(agent.lockupSeconds / 3600)} h`),
      figure("Vault", shortHex(agent.vaultAddress)),
    ),
    h(
      "section",
      { "aria-labelledby": "positions-title" },
      h("h2", { id: "positions-title" }, "Open positions"),
      table({
        items: agent.openPositions,
        empty: "No open positions.",
        columns: [
          {
            label: "Market",
            cell: (position) =>
              h(
                "a",
                { href: href({ page: "market", slug: position.marketSlug, interval: "1h" }) },
                position.marketSlug,
              ),
          },
          { label: "Outcome", cell: (position) => position.outcome },
          { label: "Tokens", numeric: true, cell: (position) => tokens(position.tokens) },
          { label: "Value", numeric: true, cell: (position) => usdc(position.value) },
        ],
      }),
    ),
    h(
      "section",
      { "aria-labelledby": "decisions-title" },
      h("h2", { id: "decisions-title" }, `Decisions (${feed.total})`),
      feed.feed.length
        ? h("ol", { class: "feed" }, ...feed.feed.map((entry) => decision(entry, { showAgent: false })))
        : h("p", { class: "empty" }, "No decisions yet."),
    ),
    h(
      "section",
      { "aria-labelledby": "bonds-title" },
      h("h2", { id: "bonds-title" }, `Bonds (${bonds.total})`),
      table({
        items: bonds.bonds,
        empty: "Nobody has bonded to this agent yet.",
        rowKey: (bond) => bond.bondId,
        columns: [
          { label: "Bond", cell: (bond) => `#${bond.bondId}` },
          { label: "Staker", cell: (bond) => h("code", { title: bond.stakerAddress }, bond.staker) },
          { label: "Staked", numeric: true, cell: (bond) => usdc(bond.amountStaked) },
          { label: "Share", numeric: true, cell: (bond) => `${(bond.sharePercent * 100).toFixed(2)}%` },
          { label: "Value", numeric: true, cell: (bond) => usdc(bond.currentValue) },
          {
            label: "P&L",
            numeric: true,
            cell: (bond) =>
              h("span", { class: bond.unrealizedPnl >= 0 ? "gain" : "loss" }, signedUsdc(bond.unrealizedPnl)),
          },
          {
            label: "Unbond now",
            numeric: true,
            cell: (bond) => (bond.liquidationValue === null ? "—" : usdc(bond.liquidationValue)),
          },
          { label: "Locked until", cell: (bond) => utc(bond.lockupUntil) },
        ],
      }),
    ),
  );
  return { title: agent.name, content };
}
