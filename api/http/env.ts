// What every request handler finds on its context.
import type { Logger } from "pino";
import type { Config } from "../config";
import type { marketQueries } from "../db/markets";
import type { priceQueries } from "../db/prices";
import type { tradeQueries } from "../db/trades";
import type { Db } from "../db/pool";

export type Queries = {
  pool: Db;
  markets: ReturnType<typeof marketQueries>;
  trades: ReturnType<typeof tradeQueries>;
  prices: ReturnType<typeof priceQueries>;
};

export type AppEnv = {
  Variables: {
    config: Config;
    db: Queries;
    log: Logger;
    requestId: string;
  };
};
