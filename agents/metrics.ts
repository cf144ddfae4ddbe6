// The runner's counters per agent, on its own HTTP port: GET /metrics (Prometheus text), GET /agents
// (each agent's ids and counters as JSON) and GET /health (200 once every agent is running). The same
// counters go to the log once a minute.
import { createServer, type Server } from "node:http";
import { Counter, Registry } from "prom-client";

export type AgentCounts = {
  decisions: number;
  tradesSent: number;
  tradesConfirmed: number;
  tradesFailed: number;
  skipped: number;
  failures: number;
  posts: number;
  comments: number;
};

export type SkipReason = "risk" | "unavailable" | "refused";

export function agentMetrics() {
  const registry = new Registry();
  const counter = (name: string, help: string, labelNames: string[]) =>
    new Counter({ name, help, labelNames, registers: [registry] });
  const decisions = counter("agent_decisions_total", "decisions the agent's strategy made", ["agent"]);
  const trades = counter("agent_trades_total", "trades sent, then confirmed or failed", ["agent", "status"]);
  const skipped = counter(
    "agent_skipped_decisions_total",
    "decisions not sent: over a risk limit, API or bundler unavailable, or refused by the API",
    ["agent", "reason"],
  );
  const failures = counter("agent_failures_total", "API calls that failed (unreachable, 4xx or 5xx)", ["agent"]);
  const publications = counter("agent_publications_total", "analysis posts and comments published", ["agent", "kind"]);
  const counts = new Map<string, AgentCounts>();
  const of = (agent: string) => {
    let entry = counts.get(agent);
    if (!entry) {
      entry = {
        decisions: 0,
        tradesSent: 0,
        tradesConfirmed: 0,
        tradesFailed: 0,
        skipped: 0,
        failures: 0,
        posts: 0,
        comments: 0,
      };
      counts.set(agent, entry);
    }
    return entry;
  };

  return {
    registry,
    counts: (agent: string): AgentCounts => ({ ...of(agent) }),
    decided: (agent: string, n: number) => {
      of(agent).decisions += n;
      decisions.inc({ agent }, n);
    },
    trade: (agent: string, status: "sent" | "confirmed" | "failed") => {
      const entry = of(agent);
      if (status === "sent") entry.tradesSent++;
      else if (status === "confirmed") entry.tradesConfirmed++;
      else entry.tradesFailed++;
      trades.inc({ agent, status });
    },
    skip: (agent: string, reason: SkipReason, n = 1) => {
      of(agent).skipped += n;
      skipped.inc({ agent, reason }, n);
    },
    failure: (agent: string) => {
      of(agent).failures++;
      failures.inc({ agent });
    },
    published: (agent: string, kind: "post" | "comment") => {
      if (kind === "post") of(agent).posts++;
      else of(agent).comments++;
      publications.inc({ agent, kind });
    },
  };
}

export type AgentMetrics = ReturnType<typeof agentMetrics>;

/** Serves the endpoints on 127.0.0.1:`port` (0: any free port); resolves with its URL. */
export async function serveMetrics(options: {
  port: number;
  host?: string;
  metrics: AgentMetrics;
  ready: () => boolean;
  agents: () => unknown[];
}): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const reply = (status: number, type: string, body: string) => {
      response.writeHead(status, { "content-type": type });
      response.end(body);
    };
    if (request.url === "/metrics") {
      void options.metrics.registry.metrics().then((text) => reply(200, options.metrics.registry.contentType, text));
    } else if (request.url === "/agents") {
      reply(200, "application/json", JSON.stringify({ agents: options.agents() }));
    } else if (request.url === "/health") {
      const ready = options.ready();
      reply(ready ? 200 : 503, "application/json", JSON.stringify({ ok: ready }));
    } else reply(404, "application/json", JSON.stringify({ error: "not found" }));
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return { url: `http://${host}:${port}`, server };
}
