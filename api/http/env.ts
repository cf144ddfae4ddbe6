// What every request handler finds on its context.
import type { Logger } from "pino";
import type { Config } from "../config";
import type { draftQueries, marketQueries } from "../db/markets";
import type { priceQueries } from "../db/prices";
import type { tradeQueries } from "../db/trades";
import type { Db } from "../db/pool";
import type { walletQueries } from "../db/wallets";
import type { submissionQueries } from "../db/submissions";
import type { idempotencyQueries } from "../db/idempotency";
import type { User } from "../auth/verifier";
import type { ChainAccess } from "../chain/access";
import type { StreamHub } from "../stream/hub";

export type Queries = {
  pool: Db;
  markets: ReturnType<typeof marketQueries>;
  drafts: ReturnType<typeof draftQueries>;
  trades: ReturnType<typeof tradeQueries>;
  prices: ReturnType<typeof priceQueries>;
  wallets: ReturnType<typeof walletQueries>;
  submissions: ReturnType<typeof submissionQueries>;
  idempotency: ReturnType<typeof idempotencyQueries>;
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
    /** Absent when the API runs without RPC_URL (reads only). */
    chain?: ChainAccess;
    /** Absent when the process does not serve the live stream (tests of single routes). */
    stream?: StreamHub;
  };
};
