// The runner: registers the house agents it has an admin token for, then runs every agent in rounds.
// A round reads the active markets once for all agents, then lets each agent decide and trade. Rounds
// come every `tickMs`, sooner after a trade on the live stream, and never overlap. While the API is
// unreachable (restarting) the rounds are skipped with the reason logged and the stream reconnects;
// the runner itself never stops on a failure.
import type { Server } from "node:http";
import type { Logger } from "pino";
import { type Agent, type AgentProfile, createAgent } from "./agent";
import { ApiCallError, agentApi, describeFailure } from "./api";
import { agentMetrics, serveMetrics } from "./metrics";
import { followTrades, type TradeStream } from "./stream";
import { marketWatch } from "./watch";

export type RunnerOptions = {
  apiUrl: string;
  agents: AgentProfile[];
  /** With an admin token, each agent is registered as a house agent (POST /api/agents/house) first. */
  adminToken?: string;
  seedUsdc: number;
  /** Time between rounds; 0 runs rounds only when asked (`round()`) or after a trade on the stream. */
  tickMs: number;
  postIntervalMs: number;
  /** The first analysis post comes this long after the start; at most a minute by default. */
  firstPostAfterMs?: number;
  /** Only these markets, by slug. */
  markets?: string[];
  /** The metrics endpoint's port (0: any free one); none when absent. */
  metricsPort?: number;
  /** false leaves the live stream out: rounds come from the timer and `round()` only. */
  stream?: boolean;
  logger: Logger;
};

export type Runner = Awaited<ReturnType<typeof startRunner>>;

/** Kept for the slow-moving strategies: the market maker's half-life is 6 hours. */
const HISTORY_MS = 24 * 3600_000;
const STREAM_DEBOUNCE_MS = 300;
const COUNTERS_LOG_MS = 60_000;

export async function startRunner(options: RunnerOptions) {
  const { logger } = options;
  const metrics = agentMetrics();
  const publicApi = agentApi({ baseUrl: options.apiUrl });
  const watch = marketWatch({ api: publicApi, historyMs: HISTORY_MS, markets: options.markets });
  const agents: Agent[] = options.agents.map((profile) =>
    createAgent({
      profile,
      apiUrl: options.apiUrl,
      metrics,
      logger,
      postIntervalMs: options.postIntervalMs,
      firstPostAfterMs: options.firstPostAfterMs ?? Math.min(options.postIntervalMs, 60_000),
    }),
  );
  let stopped = false;
  let ready = false;
  let server: Server | undefined;
  let metricsUrl: string | undefined;
  if (options.metricsPort !== undefined) {
    ({ server, url: metricsUrl } = await serveMetrics({
      port: options.metricsPort,
      metrics,
      ready: () => ready,
      agents: () =>
        agents.map((agent) => ({
          name: agent.profile.name,
          strategy: agent.profile.key,
          userId: agent.profile.userId,
          agentId: agent.id ?? null,
          counts: metrics.counts(agent.profile.name),
        })),
    }));
  }

  /**
   * Retries `step` until it succeeds or the runner stops, while the API is unreachable or
   * unavailable (it may still be starting); an answer that a retry cannot change (a refused token,
   * an agent registered as no house agent) fails the start, with the API's reason.
   */
  async function persist<T>(what: string, step: () => Promise<T>): Promise<T | undefined> {
    for (let attempt = 0; !stopped; attempt++) {
      try {
        return await step();
      } catch (error) {
        const retryable =
          !(error instanceof ApiCallError) || error.status === 0 || error.status === 429 || error.status >= 500;
        if (!retryable) throw new Error(`${what}: ${describeFailure(error)}`, { cause: error });
        logger.warn({ reason: describeFailure(error), attempt }, `${what}; trying again`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(10_000, 500 * 2 ** attempt)));
      }
    }
    return undefined;
  }

  if (options.adminToken) {
    const admin = agentApi({ baseUrl: options.apiUrl, token: options.adminToken });
    for (const { profile } of agents) {
      const registered = await persist(`${profile.name} not registered`, () =>
        admin.ensureHouseAgent({
          userId: profile.userId,
          name: profile.name,
          persona: profile.persona,
          strategy: profile.key,
          seedUsdc: options.seedUsdc,
        }),
      );
      if (registered)
        logger.info(
          {
            agent: profile.name,
            agentId: registered.agentId,
            vault: registered.vaultAddress,
            seeded: registered.seededUsdc,
          },
          registered.registerTxHash ? "house agent registered" : "house agent already registered",
        );
    }
  }
  for (const agent of agents) {
    const id = await persist(`${agent.profile.name} has no wallet yet`, agent.identify);
    if (id) logger.info({ agent: agent.profile.name, strategy: agent.profile.key, agentId: id }, "agent running");
  }

  let current: Promise<void> = Promise.resolve();
  let queued: Promise<void> | undefined;
  async function roundOfAll() {
    if (stopped) return;
    const now = Date.now();
    let markets: Awaited<ReturnType<typeof watch.refresh>>;
    try {
      markets = await watch.refresh(now);
    } catch (error) {
      for (const agent of agents) metrics.failure(agent.profile.name);
      logger.warn({ reason: describeFailure(error) }, "round skipped: markets not read");
      return;
    }
    await Promise.all(agents.map((agent) => agent.round(markets, now)));
  }
  /** The next round: one already waiting to start is shared, a running one is never overlapped. */
  function round(): Promise<void> {
    queued ??= current.then(() => {
      queued = undefined;
      return roundOfAll();
    });
    current = queued;
    return queued;
  }

  let debounce: NodeJS.Timeout | undefined;
  const stream: TradeStream | undefined =
    options.stream === false
      ? undefined
      : followTrades({
          baseUrl: options.apiUrl,
          onTrade: () => {
            clearTimeout(debounce);
            debounce = setTimeout(() => void round(), STREAM_DEBOUNCE_MS);
          },
          onStatus: (connected, reason) =>
            connected
              ? logger.info("live stream connected")
              : logger.warn({ reason }, "live stream dropped; reconnecting"),
        });
  const timer = options.tickMs > 0 ? setInterval(() => void round(), options.tickMs) : undefined;
  const countersTimer = setInterval(() => {
    for (const agent of agents)
      logger.info({ agent: agent.profile.name, ...metrics.counts(agent.profile.name) }, "counters");
  }, COUNTERS_LOG_MS);
  ready = !stopped;
  void round();

  return {
    agents,
    metrics,
    metricsUrl,
    round,
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearInterval(countersTimer);
      clearTimeout(debounce);
      stream?.close();
      await current.catch(() => {});
      await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    },
  };
}
