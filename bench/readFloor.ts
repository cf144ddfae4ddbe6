// The floor of the "api" table's HTTP rows: the same queries as the API (api/db/), answered by a bare
// node:http server with no framework, no middleware and no reshaping of the rows (the price history
// is filled and written by the API's own functions). What it leaves between itself and raw pg is
// HTTP on this machine; what the API leaves below it is the API's own cost.
// Run as a child: DATABASE_URL, VIEWS_SCHEMA and PORT in its environment.
import { createServer } from "node:http";
import pino from "pino";
import { marketQueries } from "../api/db/markets";
import { createPool } from "../api/db/pool";
import { priceQueries } from "../api/db/prices";
import { tradeQueries } from "../api/db/trades";
import { fillPriceSeries, priceHistoryJson, priceWindow } from "../api/priceSeries";

const views = process.env.VIEWS_SCHEMA!;
const pool = createPool({ databaseUrl: process.env.DATABASE_URL!, max: 20, logger: pino({ level: "silent" }) });
const markets = marketQueries(pool, views);
const prices = priceQueries(pool, views);
const trades = tradeQueries(pool, views);

/** GET /api/markets/:slug/prices?interval=1h&from=&to= as the API reads and writes it. */
async function priceHistory(slug: string, search: URLSearchParams): Promise<string> {
  const market = await markets.bySlug(slug);
  if (!market) throw new Error(`no market ${slug}`);
  const window = priceWindow({
    interval: "1h",
    fromSeconds: Math.floor(Date.parse(search.get("from")!) / 1000),
    toSeconds: Math.floor(Date.parse(search.get("to")!) / 1000),
    createdSeconds: Number(market.created_at),
  })!;
  const candles = await prices.candles(
    market.contract_address!,
    market.outcomes.length,
    "1h",
    window.first,
    window.last,
  );
  const points = fillPriceSeries({
    window,
    interval: "1h",
    end: window.last,
    candles,
    opening: market.outcomes.map(() => 1 / market.outcomes.length),
  });
  return priceHistoryJson({ slug, interval: "1h", outcomes: market.outcomes, points });
}

async function answer(path: string, search: URLSearchParams): Promise<string> {
  if (path === "/api/markets") return JSON.stringify(await markets.list({ limit: 50, offset: 0 }));
  if (path === "/api/trades/recent") return JSON.stringify(await trades.recent(20));
  const slug = /^\/api\/markets\/([^/]+)\/prices$/.exec(path)?.[1];
  if (slug) return priceHistory(slug, search);
  throw new Error(`not served: ${path}`);
}

createServer((request, response) => {
  const url = new URL(request.url ?? "/", "http://floor");
  answer(url.pathname, url.searchParams).then(
    (body) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      response.end(body);
    },
    (error: Error) => {
      response.writeHead(500, { "content-type": "text/plain" });
      response.end(error.message);
    },
  );
}).listen(Number(process.env.PORT), "127.0.0.1");
