// The explorer's entry: the live ticker, then whichever page the URL's fragment names, rendered
// again when the fragment changes. Pages only read and write through the public API.
import "./styles.css";
import { ApiFailure } from "./api";
import { failure, h } from "./dom";
import { agentPage } from "./pages/agent";
import { agentsPage } from "./pages/agents";
import { journalPage } from "./pages/journal";
import { marketPage } from "./pages/market";
import { marketsPage } from "./pages/markets";
import type { Page } from "./pages/page";
import { postPage } from "./pages/post";
import { walletPage } from "./pages/wallet";
import { href, parseRoute, type Route, sectionOf } from "./router";
import { session } from "./session";
import { startTicker } from "./ticker";

const main = document.getElementById("main")!;
let current: Page | undefined;
let rendering = 0;
/** After the first navigation, each new page moves focus to its heading. */
let navigated = false;

function load(route: Route): Promise<Page> {
  switch (route.page) {
    case "markets":
      return marketsPage(route.status);
    case "market":
      return marketPage(route.slug, route.interval);
    case "agents":
      return agentsPage();
    case "agent":
      return agentPage(route.id);
    case "journal":
      return journalPage(route.tag);
    case "post":
      return postPage(route.id);
    case "wallet":
      return walletPage();
    case "missing":
      return Promise.resolve({
        title: "Not found",
        content: h(
          "section",
          null,
          h("h1", { tabindex: -1 }, "Not found"),
          h("p", null, "No page here. ", h("a", { href: href({ page: "markets" }) }, "See the markets.")),
        ),
      });
  }
}

async function show(route: Route) {
  const mine = ++rendering;
  for (const link of document.querySelectorAll<HTMLAnchorElement>("header.site nav a")) {
    if (link.dataset.section === sectionOf(route)) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  main.setAttribute("aria-busy", "true");
  let page: Page;
  try {
    page = await load(route);
  } catch (error) {
    const notFound = error instanceof ApiFailure && error.status === 404;
    page = {
      title: notFound ? "Not found" : "Error",
      content: h(
        "section",
        null,
        h("h1", { tabindex: -1 }, notFound ? "Not found" : "Something went wrong"),
        failure(error),
      ),
    };
  }
  // A later navigation won meanwhile: this page is not shown.
  if (mine !== rendering) return page.dispose?.();
  current?.dispose?.();
  current = page;
  main.replaceChildren(page.content);
  main.removeAttribute("aria-busy");
  document.title = `${page.title} · Prediction markets`;
  // Keyboard and screen-reader users land on the new page's heading, as after a page load.
  if (navigated) main.querySelector<HTMLElement>("h1")?.focus({ preventScroll: true });
  main.dataset.page = route.page;
}

window.addEventListener("hashchange", () => {
  const route = parseRoute(location.hash);
  if (!route) return;
  navigated = true;
  window.scrollTo(0, 0);
  void show(route);
});

function showSession() {
  const link = document.querySelector<HTMLAnchorElement>('header.site a[data-section="wallet"]');
  const claims = session.claims();
  if (link) link.textContent = claims ? `Wallet (${claims.sub})` : "Wallet";
}
session.onChange(showSession);
showSession();

startTicker(document.getElementById("ticker")!);
void show(parseRoute(location.hash) ?? { page: "markets" });
