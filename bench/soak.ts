// The "soak" part (`npm run soak`): simulated traders buy and sell through the API across the demo
// markets (automine) while stream clients listen; then it checks that every accepted write ended
// confirmed or failed, that every confirmed trade is in the trades history and reached every
// stream client exactly once, and that the indexed balances equal the chain's. It prints a table
// and fails (exit code 1) when a check does. Settings: bench/soak/settings.ts.
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
import { dropSchemas } from "./database";
import {
  type AcceptedWrite,
  countsOf,
  expectedTradeIds,
  failedChecks,
  type History,
  historyGaps,
  type StreamGaps,
} from "./soak/checks";
import { openListeners, type PoolStatus } from "./soak/listenerPool";
import { type SoakSettings, soakSettings } from "./soak/settings";
import { openTrader, type SoakMarket, type SoakRecord, type Trader, trade } from "./soak/trader";
import { cpuSeconds, median, percentile, printTable } from "./stats";

/** Traders set up (wallet and faucet) at once: the faucet mines one transaction each. */
const SETUP_BATCH = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const say = (text: string) => console.error(`soak: ${text}`);

export async function benchSoak() {
  const settings = soakSettings(process.env, process.argv.includes("--quick"));
  const run = Date.now().toString(36);
  const dataDir = mkdtempSync(join(tmpdir(), "pm-soak-"));
  const viewsSchema = `bench_soak_${run}`;
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
    say(`connecting ${settings.clients} stream clients...`);
    listeners = await openListeners(apiUrl, settings.clients, settings.clientProcesses);

    say(`trading for ${settings.seconds} s...`);
    const trading = await tradeFor(stack, traders, markets, settings);
    say("waiting for the indexer to reach the chain's head...");
    await waitForIndexer({ indexerUrl: stack.indexerUrl!, rpcUrl: stack.rpcUrl });
    const { writes } = trading.record;
    const history = await tradeHistory(db, viewsSchema, writes);
    const expected = expectedTradeIds(writes, history);
    say(`waiting for every stream client to have all ${expected.length} confirmed trades...`);
    const delivered = await awaitDelivery(listeners, expected, trading.endedAt + settings.settleSeconds * 1000);
    say("comparing the indexed balances with the chain's...");
    const balanceDifferences = await differencesFromChain(
      db,
      viewsSchema,
      publicClientFor(stack.rpcUrl),
      stack.deployment,
      traders.map((trader) => trader.address as Address),
    );

    const findings = {
      writes,
      history: historyGaps(writes, history),
      stream: delivered.stream.gaps,
      outOfOrder: delivered.stream.outOfOrder,
      inconsistent: delivered.stream.inconsistent,
      balanceDifferences,
    };
    const failed = failedChecks(findings);
    printSoakTable(settings, markets.length, trading, findings, delivered, balanceDifferences.length);
    if (failed.length > 0) throw new Error(`the soak failed:\n  ${failed.join("\n  ")}`);
  } finally {
    listeners?.close();
    await db.end().catch(() => {});
    await stack.stop();
    await dropFeed(stack, viewsSchema);
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
  const startedAt = performance.now();
  const stopAt = startedAt + settings.seconds * 1000;
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

/** The indexed trades of the accepted writes, from the views the API's trade history reads. */
async function tradeHistory(db: pg.Client, views: string, writes: AcceptedWrite[]): Promise<History> {
  const { rows } = await db.query<{ id: string; user_op_hash: string }>(
    `SELECT id, user_op_hash FROM "${views}".trade WHERE user_op_hash = ANY($1::text[])`,
    [writes.map((write) => write.txId.toLowerCase())],
  );
  const history = new Map<string, string[]>();
  for (const row of rows) history.set(row.user_op_hash, [...(history.get(row.user_op_hash) ?? []), row.id]);
  return history;
}

/** Asks the clients until every one has every expected trade, or until `deadline` (performance.now()). */
async function awaitDelivery(
  listeners: Awaited<ReturnType<typeof openListeners>>,
  expected: string[],
  deadline: number,
) {
  let stream = await listeners.check(expected);
  while (stream.gaps.complete < stream.gaps.clients && performance.now() < deadline) {
    await sleep(500);
    stream = await listeners.check(expected);
  }
  return { stream, at: performance.now() };
}

type Trading = Awaited<ReturnType<typeof tradeFor>>;

function printSoakTable(
  settings: SoakSettings,
  marketCount: number,
  trading: Trading,
  findings: { writes: AcceptedWrite[]; history: ReturnType<typeof historyGaps>; stream: StreamGaps },
  delivered: { stream: PoolStatus; at: number },
  balanceDifferenceCount: number,
) {
  const { writes, history, stream } = findings;
  const { refusals } = trading.record;
  const check = (passed: boolean) => (passed ? "ok" : "FAIL");
  const confirmed = writes.filter((write) => write.status === "confirmed");
  const pending = writes.filter((write) => write.status === "pending").length;
  const spread = (ms: number[]) =>
    ms.length === 0
      ? "none"
      : `p50 ${median(ms).toFixed(0)} ms, p99 ${percentile(ms, 99).toFixed(0)} ms (${ms.length})`;
  const latency = (side: "buy" | "sell") =>
    spread(confirmed.filter((write) => write.side === side).map((write) => write.confirmedAfterMs!));
  const sides = (list: AcceptedWrite[]) =>
    `${list.filter((w) => w.side === "buy").length} buys, ${list.filter((w) => w.side === "sell").length} sells`;
  const load = trading.loadAverage.map((value) => value.toFixed(2)).join(" ");
  printTable(
    `soak (${settings.traders} traders for ${settings.seconds} s across ${marketCount} markets, one API process, automine; ${settings.clients} stream clients; status polled every ${settings.pollMs} ms; load average ${load} when trading stopped)`,
    ["measure", "value", "check"],
    [
      [
        "writes accepted",
        `${writes.length} (${(writes.length / settings.seconds).toFixed(1)}/s; ${sides(writes)})`,
        "",
      ],
      ["writes not accepted (side, status, code)", countsOf(refusals), ""],
      [
        "confirmed",
        `${confirmed.length} (${(confirmed.length / settings.seconds).toFixed(1)}/s; ${sides(confirmed)})`,
        "",
      ],
      ["failed, by reason", countsOf(writes.filter((w) => w.status === "failed").map((w) => w.error ?? "?")), ""],
      [`pending ${settings.settleSeconds} s after trading stopped`, String(pending), check(pending === 0)],
      ["buy or sell -> answered 200 (accepted)", spread(writes.map((write) => write.acceptedAfterMs)), ""],
      ["buy -> confirmed", latency("buy"), ""],
      ["sell -> confirmed", latency("sell"), ""],
      [
        "confirmed writes missing from the trades history",
        `${history.missing.length} (failed with a trade: ${history.failedButTraded.length}; more than one trade: ${history.repeated.length})`,
        check(history.missing.length + history.failedButTraded.length + history.repeated.length === 0),
      ],
      [
        "stream clients with every confirmed trade exactly once",
        `${stream.complete} of ${stream.clients} (${stream.missing} missing, ${stream.duplicated} repeated, ${stream.unexpected.length} unexpected); checked ${((delivered.at - trading.endedAt) / 1000).toFixed(1)} s after the last write ended`,
        check(stream.complete === stream.clients && stream.unexpected.length === 0),
      ],
      [
        "stream events out of order / differing between clients",
        `${delivered.stream.outOfOrder} / ${delivered.stream.inconsistent}`,
        check(delivered.stream.outOfOrder + delivered.stream.inconsistent === 0),
      ],
      [
        "stream clients reconnected (Last-Event-ID) / refused",
        `${delivered.stream.reconnects} / ${delivered.stream.refused}`,
        "",
      ],
      [
        "indexed balances different from the chain's",
        `${balanceDifferenceCount} (${settings.traders} wallets' tokens in every outcome and USDC; markets' state)`,
        check(balanceDifferenceCount === 0),
      ],
      ["API CPU while trading", `${(trading.apiCpuShare * 100).toFixed(0)}% of one core`, ""],
    ],
  );
}

/** The soak's schemas and its stream rows, on a shared database. */
async function dropFeed(stack: Stack, views: string) {
  if (stack.databaseEmbedded) return;
  await dropSchemas(stack, [stack.indexerSchema, views]);
  const client = new pg.Client(stack.databaseUrl);
  await client.connect();
  await client.query("DELETE FROM api.stream_event WHERE feed = $1", [views]);
  await client.query("DELETE FROM api.stream_trade WHERE feed = $1", [views]);
  await client.end();
}
