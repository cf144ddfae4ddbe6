// One agent at work: each round it reads its vault through the API, asks its strategy for decisions
// on the markets it has no trade in flight in, checks each against its risk limits and sends it as a
// vault trade with its reasoning and confidence. It follows every trade it sent until the indexer
// confirms it (or it fails), comments on a market when it opens a position there, and publishes an
// analysis post on its schedule. Whatever fails, the round carries on or ends with a logged reason:
// nothing an API, a bundler or a chain node does makes it throw.
import type { Logger } from "pino";
import { analysisPost, positionComment } from "./analysis";
import { type AgentApi, ApiCallError, agentApi, describeFailure } from "./api";
import type { AgentMetrics } from "./metrics";
import { checkRisk, type RiskLimits } from "./risk";
import {
  type Decision,
  type Holding,
  type MarketSnapshot,
  marketExposure,
  type Portfolio,
  type Snapshot,
  type Strategy,
} from "./strategy";

export type AgentProfile = {
  /** The strategy's key, also the on-chain strategy text. */
  key: string;
  name: string;
  persona: string;
  /** The user the token is for (its `sub`). */
  userId: string;
  token: string;
  strategy: Strategy;
  risk: RiskLimits;
};

export type AgentOptions = {
  profile: AgentProfile;
  apiUrl: string;
  metrics: AgentMetrics;
  logger: Logger;
  postIntervalMs: number;
  /** The first analysis post comes this long after the start. */
  firstPostAfterMs: number;
};

type InFlight = { decision: Decision; marketSlug: string; outcome: string; sentAt: number; opensPosition: boolean };

/** A trade not confirmed by then is given up (the sponsorship it was sent with has expired). */
const CONFIRMATION_TIMEOUT_MS = 6 * 60_000;

export type Agent = ReturnType<typeof createAgent>;

export function createAgent(options: AgentOptions) {
  const { profile, metrics } = options;
  const api: AgentApi = agentApi({ baseUrl: options.apiUrl, token: profile.token });
  const log = options.logger.child({ agent: profile.name });
  const inFlight = new Map<string, InFlight>();
  const lastTradeAt: Record<string, number> = {};
  const commented = new Set<string>();
  let agentId: string | undefined;
  let nextPostAt = Date.now() + options.firstPostAfterMs;

  const failed = (what: string, error: unknown) => {
    metrics.failure(profile.name);
    log.warn({ reason: describeFailure(error) }, what);
  };

  /** The agent's id (its smart account's address), from its wallet; throws while the API is unreachable. */
  async function identify(): Promise<string> {
    agentId ??= (await api.wallet()).address.toLowerCase();
    return agentId;
  }

  async function portfolioOf(id: string, markets: MarketSnapshot[]): Promise<Portfolio> {
    const detail = await api.agent(id);
    const holdings: Holding[] = detail.openPositions.flatMap((position) => {
      const outcome = markets.find((m) => m.slug === position.marketSlug)?.outcomes.indexOf(position.outcome) ?? -1;
      return outcome < 0
        ? []
        : [{ marketSlug: position.marketSlug, outcome, tokens: position.tokens, value: position.value }];
    });
    return { cash: detail.cash, netAssetValue: detail.netAssetValue, holdings };
  }

  async function followUp(now: number) {
    for (const [txId, trade] of inFlight) {
      let status: Awaited<ReturnType<AgentApi["tradeStatus"]>>;
      try {
        status = await api.tradeStatus(txId);
      } catch (error) {
        failed("trade status not read; asking again next round", error);
        return;
      }
      if (status.status === "pending") {
        if (now - trade.sentAt < CONFIRMATION_TIMEOUT_MS) continue;
        inFlight.delete(txId);
        metrics.trade(profile.name, "failed");
        log.warn({ txId, market: trade.marketSlug }, "trade not confirmed in time; given up");
        continue;
      }
      inFlight.delete(txId);
      if (status.status === "failed") {
        metrics.trade(profile.name, "failed");
        log.warn({ txId, market: trade.marketSlug, error: status.error }, "trade failed");
        continue;
      }
      metrics.trade(profile.name, "confirmed");
      log.info({ txId, txHash: status.txHash, block: status.blockNumber, market: trade.marketSlug }, "trade confirmed");
      if (trade.opensPosition && !commented.has(trade.marketSlug)) await comment(trade);
    }
  }

  async function comment(trade: InFlight) {
    commented.add(trade.marketSlug);
    try {
      const published = await api.publishComment({
        targetType: "market",
        targetId: trade.marketSlug,
        ...positionComment({ outcome: trade.outcome, reasoning: trade.decision.reasoning }),
      });
      metrics.published(profile.name, "comment");
      log.info({ market: trade.marketSlug, commentId: published.id, stance: trade.outcome }, "comment published");
    } catch (error) {
      failed("comment not published", error);
    }
  }

  /** Sends one decision; false when the API or its bundler is unavailable, so the round stops sending. */
  async function send(decision: Decision, market: MarketSnapshot, portfolio: Portfolio, now: number) {
    const outcome = market.outcomes[decision.outcome]!;
    const common = {
      marketSlug: decision.marketSlug,
      outcome,
      reasoning: decision.reasoning,
      confidence: decision.confidence,
    };
    try {
      const sent =
        decision.action === "buy"
          ? await api.buy({ ...common, amount: decision.amount, maxPrice: decision.maxPrice })
          : await api.sell({ ...common, tokenAmount: decision.tokens, minPrice: decision.minPrice });
      lastTradeAt[decision.marketSlug] = now;
      inFlight.set(sent.txId, {
        decision,
        marketSlug: decision.marketSlug,
        outcome,
        sentAt: now,
        opensPosition: decision.action === "buy" && marketExposure(portfolio, decision.marketSlug) === 0,
      });
      metrics.trade(profile.name, "sent");
      log.info(
        {
          market: decision.marketSlug,
          action: decision.action,
          outcome,
          ...(decision.action === "buy" ? { amount: decision.amount } : { tokens: decision.tokens }),
          confidence: decision.confidence,
          reasoning: decision.reasoning,
          txId: sent.txId,
        },
        "trade sent",
      );
      return true;
    } catch (error) {
      const unavailable = error instanceof ApiCallError && (error.status === 0 || error.status >= 500);
      metrics.failure(profile.name);
      metrics.skip(profile.name, unavailable ? "unavailable" : "refused");
      log.warn(
        { market: decision.marketSlug, reason: describeFailure(error), reasoning: decision.reasoning },
        "decision skipped",
      );
      return !unavailable;
    }
  }

  async function publishAnalysis(snapshot: Snapshot) {
    const counts = metrics.counts(profile.name);
    try {
      const post = await api.publishPost(
        analysisPost({
          agentName: profile.name,
          strategy: profile.key,
          snapshot,
          outlook: profile.strategy.outlook(snapshot),
          marketUrl: (slug) => `${options.apiUrl}/api/markets/${slug}`,
          counts: { decisions: counts.decisions, tradesConfirmed: counts.tradesConfirmed },
        }),
      );
      nextPostAt = snapshot.now + options.postIntervalMs;
      metrics.published(profile.name, "post");
      log.info({ postId: post.id, title: post.title }, "analysis published");
    } catch (error) {
      const retryAfter = error instanceof ApiCallError ? error.retryAfterMs : undefined;
      nextPostAt = snapshot.now + (retryAfter ?? Math.min(options.postIntervalMs, 60_000));
      failed("analysis not published; trying again later", error);
    }
  }

  return {
    profile,
    identify,
    get id() {
      return agentId;
    },
    /** Trades sent and not yet confirmed or failed. */
    get inFlight() {
      return inFlight.size;
    },

    /** One round on the markets given (read for all agents at once). Never throws. */
    async round(markets: MarketSnapshot[], now = Date.now()): Promise<void> {
      let id: string;
      let portfolio: Portfolio;
      try {
        id = await identify();
        await followUp(now);
        portfolio = await portfolioOf(id, markets);
      } catch (error) {
        failed("round skipped", error);
        return;
      }
      const busy = new Set([...inFlight.values()].map((trade) => trade.marketSlug));
      const snapshot: Snapshot = {
        now,
        markets: markets.filter((market) => !busy.has(market.slug)),
        portfolio,
        lastTradeAt: { ...lastTradeAt },
      };
      let decisions: Decision[];
      try {
        decisions = await profile.strategy.decide(snapshot);
      } catch (error) {
        failed("strategy failed; round skipped", error);
        return;
      }
      metrics.decided(profile.name, decisions.length);
      for (const [index, decision] of decisions.entries()) {
        const risk = checkRisk(decision, portfolio, profile.risk);
        if (!risk.ok) {
          metrics.skip(profile.name, "risk");
          log.warn(
            { market: decision.marketSlug, reason: risk.reason, reasoning: decision.reasoning },
            "decision skipped",
          );
          continue;
        }
        // A strategy behind a URL could name a market it was not shown.
        const market = snapshot.markets.find((m) => m.slug === decision.marketSlug);
        if (!market) {
          metrics.skip(profile.name, "refused");
          log.warn({ market: decision.marketSlug }, "decision skipped: not a market it was shown");
          continue;
        }
        if (await send(decision, market, portfolio, now)) continue;
        const left = decisions.length - index - 1;
        if (left > 0) {
          metrics.skip(profile.name, "unavailable", left);
          log.warn({ count: left }, "decisions skipped: the API or its bundler is unavailable");
        }
        break;
      }
      if (now >= nextPostAt) await publishAnalysis({ ...snapshot, markets });
    },
  };
}
