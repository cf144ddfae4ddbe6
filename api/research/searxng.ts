// A SearxNG instance as a research provider (SEARXNG_URL): its JSON search API. Off unless set, so
// that nothing leaves the machine by default.
import type { ResearchProvider, Source } from "./types";

const LIMITS = { quick: 5, standard: 10 } as const;

type SearxResult = { title?: unknown; url?: unknown; content?: unknown };

export function searxngProvider(baseUrl: string, budgetMs = 20_000): ResearchProvider {
  return {
    name: "searxng",
    budgetMs,
    async search(question, { depth, signal }) {
      const url = new URL("search", baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
      url.searchParams.set("q", question);
      url.searchParams.set("format", "json");
      const response = await fetch(url, { signal, headers: { accept: "application/json" } });
      if (!response.ok) throw new Error(`SearxNG answered ${response.status}`);
      const body = (await response.json()) as { results?: SearxResult[] };
      return (body.results ?? [])
        .filter((result) => typeof result.url === "string" && typeof result.title === "string")
        .slice(0, LIMITS[depth])
        .map(
          (result): Source => ({
            title: String(result.title),
            url: String(result.url),
            source: "searxng",
            snippet: typeof result.content === "string" ? result.content : "",
          }),
        );
    },
  };
}
