// The "soak" part (`npm run soak`): simulated traders buy and sell through the API across the demo
// markets (automine) while stream clients listen; then it checks that every accepted write ended
// confirmed or failed, that every confirmed trade is in the trades history and every trade of the
// history reached every stream client exactly once, and that the indexed balances equal the
// chain's. It prints a table and fails (exit code 1) when a check does. Settings: soak/settings.ts.
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { Address } from "viem";
import { publicClientFor } from "../api/chain/chain";
import { type Stack, startStack } from "../scripts/stack";
import { waitForIndexer } from "../scripts/stack/indexer";
import { prng } from "../test/helpers/chain";
import { differencesFromChain } from "../test/helpers/indexCheck";
import { failedChecks, historyGaps, type IndexedTrade } from "./soak/checks";
import { openListeners } from "./soak/listenerPool";
import { type SoakSettings, soakSettings } from "./soak/settings";
import { printSoakTable } from "./soak/table";
import { openTrader, type SoakMarket, type SoakRecord, type Trader, trade } from "./soak/trader";
import { cpuSeconds } from "./stats";

/** Traders set up (wallet and faucet) at once: the faucet mines one transaction each. */
const SETUP_BATCH = 20;
/** The least time the checks wait for the chain, the indexer and the stream to settle, however late the last write ended. */
const LEAST_SETTLING_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const say = (text: string) => console.error(`soak: ${text}`);

export async function benchSoak() {
  const settings = soakSettings(process.env, process.argv.includes("--quick"));
  const run = Date.now().toString(36);
  const dataDir = mkdtempSync(join(tmpdir(), "pm-soak-"));
  const viewsSchema = `soak_${run}`;
  say(
    `${settings.traders} traders for ${settings.seconds} s, ${settings.clients} stream clients; starting the stack...`,
  );
  const stack = await startStack({
    dataDir,
    deploymentsDir: join(dataDir, "deployments"),
    // Its own embedded PostgreSQL, never a shared DATABASE_URL: an API that starts against the same
    // database settles every unfinished submission it finds there, and would fail the soak's writes
    // in flight as "not sent" (seen in a run beside other helpers' test stacks).
    blockTimeMs: 0,
    viewsSchema,
    apiEnv: { LOG_LEVEL: "warn", STREAM_MAX_CLIENTS: String(settings.clients + 100) },
  });
  const db = new pg.Client(stack.databaseUrl);
  let listeners: Awaited<ReturnType<typeof openListeners>> | undefined;
  try {
    await db.connect();
    const apiUrl = stack.apiUrl!;
    const markets = await activeMarkets(apiUrl);
    say(`opening ${settings.traders} traders' wallets (faucet once each)...`);
    const expiresAt = Math.floor(Date.now() / 1000) + settings.seconds + settings.settleSeconds + 3_600;
    const traders: Trader[] = [];
    for (let first = 0; first < settings.traders; first += SETUP_BATCH) {
      const batch = Array.from({ length: Math.min(SETUP_BATCH, settings.traders - first) }, (_, i) => first + i);
      traders.push(...(await Promise.all(batch.map((i) => openTrader(apiUrl, `soak-${run}-${i}`, expiresAt)))));
    }
    const wallets = traders.map((trader) => trader.address.toLowerCase() as Address);
    say(`connecting ${settings.clients} stream clients...`);
    listeners = await openListeners(apiUrl, settings.clients, settings.clientProcesses);

    say(`trading for ${settings.seconds} s...`);
    const trading = await tradeFor(stack, traders, markets, settings);
    const deadline = Math.max(trading.endedAt + settings.settleSeconds * 1000, performance.now() + LEAST_SETTLING_MS);
    const since = (at: number) => (at - trading.endedAt) / 1000;
    // A write the API answered with an error may still trade a moment later: compare once the
    // chain has stopped changing, or at the deadline.
    say("comparing the indexed balances with the chain's...");
    const balances = await settledBalances(stack, db, viewsSchema, wallets, deadline);
    const trades = await tradesOf(db, viewsSchema, wallets);
    say(`waiting for every stream client to have all ${trades.length} trades...`);
    const ids = trades.map((trade) => trade.id);
    let stream = await listeners.check(ids);
    while (stream.gaps.complete < stream.gaps.clients && performance.now() < deadline) {
      await sleep(500);
      stream = await listeners.check(ids);
    }
    const streamCheckedAt = performance.now();

    const { writes, refusals } = trading.record;
    const history = historyGaps(writes, trades);
    printSoakTable({
      settings,
      marketCount: markets.length,
      writes,
      refusals,
      loadAverage: trading.loadAverage,
      apiCpuShare: trading.apiCpuShare,
      history,
      stream,
      streamCheckedAfter: since(streamCheckedAt),
      balancesComparedAfter: since(balances.at),
      balanceDifferences: balances.differences,
    });
    const failed = failedChecks({
      writes,
      history,
      stream: stream.gaps,
      outOfOrder: stream.outOfOrder,
      inconsistent: stream.inconsistent,
      balanceDifferences: balances.differences,
    });
    if (failed.length > 0) throw new Error(`the soak failed:\n  ${failed.join("\n  ")}`);
  } finally {
    listeners?.close();
    await db.end().catch(() => {});
    await stack.stop();
    if (process.env.KEEP_STACK_DATA) say(`logs kept in ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}

async function activeMarkets(apiUrl: string): Promise<SoakMarket[]> {
  const { markets } = (await (await fetch(`${apiUrl}/api/markets?status=active&limit=100`)).json()) as {
    markets: SoakMarket[];
  };
  if (markets.length === 0) throw new Error("the stack has no active market to trade");
  return markets.map(({ slug, outcomes }) => ({ slug, outcomes }));
}

/** Every trader trades until the time is up; resolves once each has followed its last write to its end. */
async function tradeFor(stack: Stack, traders: Trader[], markets: SoakMarket[], settings: SoakSettings) {
  const record: SoakRecord = { writes: [], refusals: [] };
  const apiPid = stack.children.find((child) => child.name === "api")!.process.pid!;
  const stopAt = performance.now() + settings.seconds * 1000;
  const cpuBefore = cpuSeconds(apiPid);
  // Read when the traders stop, not when their last writes have settled.
  const atStop = sleep(settings.seconds * 1000).then(() => ({
    loadAverage: loadavg(),
    apiCpuShare: (cpuSeconds(apiPid) - cpuBefore) / settings.seconds,
  }));
  await Promise.all(
    traders.map((trader, i) =>
      trade(trader, {
        apiUrl: stack.apiUrl!,
        markets,
        stopAt,
        settleBy: stopAt + settings.settleSeconds * 1000,
        thinkMs: settings.thinkMs,
        pollMs: settings.pollMs,
        random: prng(1_000 + i),
        record,
      }),
    ),
  );
  return { record, endedAt: performance.now(), ...(await atStop) };
}

/** Compares the index with the chain, once the indexer has the chain's head, until they match or the deadline passes. */
async function settledBalances(stack: Stack, db: pg.Client, views: string, wallets: Address[], deadline: number) {
  const chain = publicClientFor(stack.rpcUrl);
  for (;;) {
    await waitForIndexer({ indexerUrl: stack.indexerUrl!, rpcUrl: stack.rpcUrl });
    const differences = await differencesFromChain(db, views, chain, stack.deployment, wallets);
    if (differences.length === 0 || performance.now() >= deadline) return { differences, at: performance.now() };
    await sleep(2_000);
  }
}

/** Every indexed trade of the soak's wallets, from the views the API's trade history reads. */
async function tradesOf(db: pg.Client, views: string, wallets: Address[]): Promise<IndexedTrade[]> {
  const { rows } = await db.query<{ id: string; user_op_hash: string | null }>(
    `SELECT id, user_op_hash FROM "${views}".trade WHERE trader = ANY($1::text[])`,
    [wallets],
  );
  return rows.map((row) => ({ id: row.id, userOpHash: row.user_op_hash }));
}
