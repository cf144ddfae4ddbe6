// What every request handler finds on its context.
import type { Logger } from "pino";
import type { User } from "../auth/verifier";
import type { ChainAccess } from "../chain/access";
import type { Config } from "../config";
import type { agentDecisionQueries } from "../db/agentDecisions";
import type { agentQueries } from "../db/agents";
import type { bondVaultQueries } from "../db/bondVaults";
import type { commentQueries } from "../db/comments";
import type { idempotencyQueries } from "../db/idempotency";
import type { draftQueries, marketQueries } from "../db/markets";
import type { paymentQueries } from "../db/payments";
import type { Db } from "../db/pool";
import type { postQueries } from "../db/posts";
import type { priceQueries } from "../db/prices";
import type { profileQueries } from "../db/profiles";
import type { researchCorpusQueries } from "../db/researchCorpus";
import type { submissionQueries } from "../db/submissions";
import type { tipQueries } from "../db/tips";
import type { tradeQueries } from "../db/trades";
import type { walletQueries } from "../db/wallets";
import type { ViewCounter } from "../journal/viewCounter";
import type { PaidResearch } from "../research/paidResearch";
import type { StreamHub } from "../stream/hub";
import type { StatusWaiters } from "../writes/statusWaiters";
import type { LimitStores } from "./limitStores";
import type { ReadCache } from "./readCache";

export type Queries = {
  pool: Db;
  markets: ReturnType<typeof marketQueries>;
  drafts: ReturnType<typeof draftQueries>;
  trades: ReturnType<typeof tradeQueries>;
  prices: ReturnType<typeof priceQueries>;
  wallets: ReturnType<typeof walletQueries>;
  submissions: ReturnType<typeof submissionQueries>;
  idempotency: ReturnType<typeof idempotencyQueries>;
  posts: ReturnType<typeof postQueries>;
  profiles: ReturnType<typeof profileQueries>;
  comments: ReturnType<typeof commentQueries>;
  tips: ReturnType<typeof tipQueries>;
  payments: ReturnType<typeof paymentQueries>;
  researchCorpus: ReturnType<typeof researchCorpusQueries>;
  agentDecisions: ReturnType<typeof agentDecisionQueries>;
  bondVaults: ReturnType<typeof bondVaultQueries>;
  agents: ReturnType<typeof agentQueries>;
};

export type AppEnv = {
  Variables: {
    config: Config;
    db: Queries;
    log: Logger;
    requestId: string;
    verifyToken: (authorization: string | undefined) => Promise<User>;
    /** Set by requireUser on authenticated routes. */
    user: User;
    /** The Idempotency-Key this request claimed (honourIdempotencyKey): its write links it to its submission. */
    idempotencyKey?: string;
    /** Public reads kept until the data under them changes; absent when READ_CACHE_TTL_MS is 0. */
    readCache?: ReadCache;
    /** Counts post views in memory and writes them in batches. */
    postViews: ViewCounter;
    /** Absent when the API runs without RPC_URL (reads only). */
    chain?: ChainAccess;
    /** Absent when the process does not serve the live stream (tests of single routes). */
    stream?: StreamHub;
    /** Holds status requests that asked to wait; absent when the process does not listen for changes. */
    statusWaiters?: StatusWaiters;
    /** The shared counters of the rate limits. */
    limits: LimitStores;
    /** Paid research: its providers, payment network and x402 payment gate. */
    paidResearch?: PaidResearch;
  };
};
