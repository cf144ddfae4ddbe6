// Pages are named by the URL's fragment (`#/market/<slug>?interval=4h`), so that the API serves one
// document at `/` and every page has a link of its own. Pure (web/src/router.test.ts).

export type Route =
  | { page: "markets"; status?: string }
  | { page: "market"; slug: string; interval: "1h" | "4h" | "1d" }
  | { page: "agents" }
  | { page: "agent"; id: string }
  | { page: "journal"; tag?: string }
  | { page: "post"; id: string }
  | { page: "wallet" }
  | { page: "missing"; path: string };

const INTERVALS = ["1h", "4h", "1d"] as const;

/**
 * The page a fragment names; undefined for a fragment that is not a page (`#main`, the skip link's
 * target), which leaves the current page where it is.
 */
export function parseRoute(hash: string): Route | undefined {
  if (hash !== "" && hash !== "#" && !hash.startsWith("#/")) return undefined;
  const [path = "", search = ""] = hash.replace(/^#\/?/, "").split("?", 2);
  const query = new URLSearchParams(search);
  const [section = "", id, ...rest] = path.split("/").map((part) => decodeURIComponent(part));
  const one = () => (id && rest.length === 0 ? id : undefined);
  switch (section) {
    case "":
    case "markets":
      return { page: "markets", status: query.get("status") || undefined };
    case "market": {
      const slug = one();
      if (!slug) break;
      const interval = INTERVALS.find((value) => value === query.get("interval")) ?? "1h";
      return { page: "market", slug, interval };
    }
    case "agents":
      return { page: "agents" };
    case "agent": {
      const agentId = one();
      return agentId ? { page: "agent", id: agentId } : { page: "missing", path };
    }
    case "journal":
      return { page: "journal", tag: query.get("tag") || undefined };
    case "post": {
      const postId = one();
      return postId ? { page: "post", id: postId } : { page: "missing", path };
    }
    case "wallet":
      return { page: "wallet" };
  }
  return { page: "missing", path };
}

/** The fragment of a page, the inverse of parseRoute. */
export function href(route: Exclude<Route, { page: "missing" }>): string {
  const query = (entries: Record<string, string | undefined>) => {
    const params = new URLSearchParams(
      Object.entries(entries).filter((entry): entry is [string, string] => !!entry[1]),
    );
    return params.size ? `?${params}` : "";
  };
  switch (route.page) {
    case "markets":
      return `#/${query({ status: route.status })}`;
    case "market":
      return `#/market/${encodeURIComponent(route.slug)}${query({ interval: route.interval === "1h" ? undefined : route.interval })}`;
    case "agents":
      return "#/agents";
    case "agent":
      return `#/agent/${encodeURIComponent(route.id)}`;
    case "journal":
      return `#/journal${query({ tag: route.tag })}`;
    case "post":
      return `#/post/${encodeURIComponent(route.id)}`;
    case "wallet":
      return "#/wallet";
  }
}

/** The navigation section a page belongs to, for aria-current. */
export const sectionOf = (route: Route) =>
  ({
    markets: "markets",
    market: "markets",
    agents: "agents",
    agent: "agents",
    journal: "journal",
    post: "journal",
    wallet: "wallet",
    missing: "",
  })[route.page];
