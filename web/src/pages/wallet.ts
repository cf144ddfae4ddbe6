// The wallet: sign in (a pasted token, or on the local stack a token minted by the API), then the
// smart account's balance, test USDC from the faucet, positions and bonds, and trading.
import { ApiFailure, api, read } from "../api";
import { failure, fill, h, loading, table } from "../dom";
import { shortHex, signedUsdc, tokens, usdc } from "../format";
import { href } from "../router";
import { session } from "../session";
import { tradeForm } from "../tradeForm";
import type { Page } from "./page";

function signInForms(): HTMLElement {
  const message = h("p", { role: "alert", class: "error", hidden: true });
  const show = (error: unknown) => {
    message.hidden = false;
    message.textContent = (error as Error).message;
  };
  const token = h("textarea", {
    id: "token",
    name: "token",
    rows: 3,
    autocomplete: "off",
    spellcheck: "false",
    required: true,
  });
  const pasted = h(
    "form",
    {
      class: "sign-in",
      onsubmit: async (event) => {
        event.preventDefault();
        const value = token.value.trim();
        session.signIn(value);
        // The API is the judge: a token it refuses is dropped again.
        await read(api().POST("/api/wallet/get-or-create")).catch((error) => {
          session.signOut();
          show(error);
        });
      },
    },
    h("label", { for: "token" }, "Bearer token (JWT)"),
    token,
    h("button", { type: "submit" }, "Sign in"),
  );
  const user = h("input", {
    id: "local-user",
    name: "user",
    value: `explorer-${Math.random().toString(36).slice(2, 8)}`,
    autocomplete: "username",
    pattern: "[A-Za-z0-9_.@\\-]{1,64}",
  });
  const local = session.localSignIn()
    ? h(
        "form",
        {
          class: "sign-in local",
          onsubmit: async (event) => {
            event.preventDefault();
            try {
              const minted = await read(
                api().GET("/api/dev/token", { params: { query: { user: user.value.trim() } } }),
              );
              session.signIn(minted.token);
            } catch (error) {
              show(error);
            }
          },
        },
        h("h2", null, "Local stack"),
        h(
          "p",
          { class: "muted" },
          "This API verifies tokens with the local stack's public secret, so it signs anyone in.",
        ),
        h("label", { for: "local-user" }, "User id"),
        user,
        h("button", { type: "submit", id: "local-sign-in" }, "Sign in on the local stack"),
      )
    : null;
  return h("section", { class: "signed-out" }, h("h2", null, "Sign in"), message, local, pasted);
}

async function walletView(): Promise<HTMLElement> {
  const claims = session.claims()!;
  const wallet = await read(api().POST("/api/wallet/get-or-create"));
  const balanceBox = h("div", { class: "balance" }, loading("balance"));
  const positionsBox = h("div", null, loading("positions"));
  const faucetNote = h("p", { role: "status", class: "muted" });

  const refresh = async () => {
    try {
      const [balance, positions] = await Promise.all([
        read(api().GET("/api/wallet/balance")),
        read(api().GET("/api/wallet/positions")),
      ]);
      fill(
        balanceBox,
        h(
          "dl",
          { class: "figures" },
          ...balance.balances.map((entry) =>
            h("div", null, h("dt", null, entry.token), h("dd", { "data-token": entry.token }, usdc(entry.amount))),
          ),
        ),
      );
      fill(
        positionsBox,
        table({
          caption: `Positions as of block ${positions.asOf}`,
          items: positions.positions,
          empty: "No positions yet.",
          columns: [
            {
              label: "Market",
              cell: (p) => h("a", { href: href({ page: "market", slug: p.marketSlug, interval: "1h" }) }, p.marketSlug),
            },
            { label: "Outcome", cell: (p) => p.outcome },
            { label: "Tokens", numeric: true, cell: (p) => tokens(p.tokens) },
            { label: "Cost", numeric: true, cell: (p) => usdc(p.costBasis) },
            { label: "Value", numeric: true, cell: (p) => usdc(p.value) },
            { label: "Unrealised", numeric: true, cell: (p) => signedUsdc(p.unrealizedPnl) },
            { label: "Realised", numeric: true, cell: (p) => signedUsdc(p.realizedPnl) },
          ],
        }),
        positions.bonds.length
          ? table({
              caption: "Bonds",
              items: positions.bonds,
              empty: "",
              columns: [
                { label: "Agent", cell: (b) => h("a", { href: href({ page: "agent", id: b.agentId }) }, b.agentName) },
                { label: "Staked", numeric: true, cell: (b) => usdc(b.amountStaked) },
                { label: "Value", numeric: true, cell: (b) => usdc(b.currentValue) },
                { label: "P&L", numeric: true, cell: (b) => signedUsdc(b.unrealizedPnl) },
              ],
            })
          : null,
      );
    } catch (error) {
      fill(balanceBox, failure(error));
    }
  };

  const faucet = h(
    "button",
    {
      type: "button",
      id: "faucet",
      onclick: async () => {
        faucet.disabled = true;
        faucetNote.textContent = "Asking the faucet…";
        try {
          const grant = await read(api().POST("/api/wallet/faucet"));
          faucetNote.textContent = `Received ${usdc(grant.amount)} (transaction ${shortHex(grant.txHash)}).`;
          await refresh();
        } catch (error) {
          faucetNote.textContent = error instanceof ApiFailure ? error.message : String(error);
        } finally {
          faucet.disabled = false;
        }
      },
    },
    "Get test USDC",
  );

  const { markets } = await read(api().GET("/api/markets", { params: { query: { status: "active", limit: 200 } } }));
  await refresh();
  return h(
    "div",
    { class: "signed-in" },
    h(
      "p",
      null,
      "Signed in as ",
      h("strong", { id: "user-id" }, claims.sub),
      " · ",
      h("button", { type: "button", class: "link", onclick: () => session.signOut() }, "Sign out"),
    ),
    h(
      "section",
      { "aria-labelledby": "account-title" },
      h("h2", { id: "account-title" }, "Account"),
      h(
        "p",
        null,
        "Smart account ",
        h("code", { id: "wallet-address", title: wallet.address }, wallet.address),
        ` on chain ${wallet.chainId}`,
      ),
      balanceBox,
      h("p", null, faucet),
      faucetNote,
    ),
    h(
      "section",
      { "aria-labelledby": "positions-title" },
      h("h2", { id: "positions-title" }, "Positions"),
      positionsBox,
    ),
    h(
      "section",
      { "aria-labelledby": "trade-title" },
      h("h2", { id: "trade-title" }, "Trade"),
      tradeForm({ markets, onSettled: () => void refresh() }),
    ),
  );
}

export async function walletPage(): Promise<Page> {
  const body = h("div", null);
  const render = async () => {
    if (!session.token()) return fill(body, signInForms());
    fill(body, loading("your wallet"));
    try {
      fill(body, await walletView());
    } catch (error) {
      fill(body, failure(error), signInForms());
    }
  };
  const unsubscribe = session.onChange(() => void render());
  await render();
  return {
    title: "Wallet",
    content: h("section", { class: "wallet" }, h("h1", { tabindex: -1 }, "Wallet"), body),
    dispose: unsubscribe,
  };
}
