// The "writes" table: from POST /api/trade/buy to the status route answering `confirmed` (p50,
// p99) on automine and on 1-second blocks; confirmed buys per second with 50 and 200 users each
// buying one at a time on automine, beside the floor of the same run: the bundler alone
// (bench/writesFloor.ts) with the same accounts and the same buy.
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { ownerKeyFor } from "../api/chain/walletKeys";
import { type Stack, startStack } from "../scripts/stack";
import { LOCAL_WALLET_MASTER_KEY } from "../scripts/stack/keys";
import { tokenFor } from "../test/helpers/tokens";
import { median, percentile, printTable } from "./stats";
import { sustainedFloor } from "./writesFloor";

const USER_COUNTS = [50, 200];
const SUSTAINED_SECONDS = Number(process.env.BENCH_SECONDS ?? 10) * 2;
/**
 * How long the status route holds a writer's request while its buy is pending: it answers as soon
 * as the buy is decided, so that writers do not poll (200 of them polling every 20 ms took more of
 * the machine than the writes).
 */
const STATUS_WAIT_MS = 10_000;
/** The pause after a status answer that is an error, which the route did not hold. */
const ERROR_PAUSE_MS = 100;

export async function benchWrites() {
  const rows: string[][] = [];
  for (const blockTimeMs of [0, 1000]) {
    const dataDir = mkdtempSync(join(tmpdir(), "pm-bench-"));
    const stack = await startStack({
      dataDir,
      deploymentsDir: join(dataDir, "deployments"),
      databaseUrl: process.env.DATABASE_URL,
      blockTimeMs,
      viewsSchema: `bench_views_${Date.now().toString(36)}`,
    });
    try {
      const client = apiClient(stack);
      const automine = blockTimeMs === 0;
      // User ids of this run only: the faucet grants each user once an hour, in a database that outlives runs.
      const run = Date.now().toString(36);
      const userIds = Array.from({ length: automine ? Math.max(...USER_COUNTS) : 1 }, (_, i) => `writer-${run}-${i}`);
      const tokens = await Promise.all(userIds.map((id) => tokenFor(id)));
      // Set up 25 at a time: 200 faucet grants at once time out waiting for the API's database pool.
      await inBatches(tokens, (token) => client.post("/api/wallet/get-or-create", undefined, token));
      await inBatches(tokens, (token) => client.post("/api/wallet/faucet", undefined, token));
      // Each account's first operation deploys it and approves the market; paid once, not measured.
      await inBatches(tokens, (token) => client.buyConfirmed(token));

      const samples = automine ? 100 : 30;
      const latencies: number[] = [];
      for (let i = 0; i < samples; i++) latencies.push(await client.buyConfirmed(tokens[0]!));
      const chain = automine ? "automine" : "1-second blocks";
      rows.push([
        chain,
        "1, in a row",
        `p50 ${median(latencies).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms (${samples} buys)`,
        "",
        "",
        "",
      ]);
      if (!automine) continue;
      for (const users of USER_COUNTS) {
        const ours = await client.sustained(tokens.slice(0, users), SUSTAINED_SECONDS);
        const oursLoad = loadavg()[0]!;
        const floor = await sustainedFloor({
          stack,
          ownerKeys: userIds.slice(0, users).map((id) => ownerKeyFor(LOCAL_WALLET_MASTER_KEY, id)),
          market: stack.deployment.markets[1]!.address,
          seconds: SUSTAINED_SECONDS,
        });
        rows.push([
          chain,
          String(users),
          `p50 ${median(ours.latencies).toFixed(0)} ms, p99 ${percentile(ours.latencies, 99).toFixed(0)} ms`,
          `${ours.perSecond.toFixed(1)} (load ${oursLoad.toFixed(1)})`,
          `${floor.toFixed(1)} (load ${loadavg()[0]!.toFixed(1)})`,
          (ours.perSecond / floor).toFixed(2),
        ]);
        console.log(`writes: ${rows.at(-1)!.join(" | ")}`);
      }
    } finally {
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  printTable(
    `writes (POST /api/trade/buy until GET /api/trade/status says confirmed; floor: the bundler alone, no API, no estimation; ${SUSTAINED_SECONDS} s each; load = 1-minute load average after)`,
    ["chain", "users", "buy -> confirmed", "confirmed buys/s", "floor buys/s", "ours / floor"],
    rows,
  );
}

async function inBatches<T>(items: T[], each: (item: T) => Promise<unknown>, size = 25) {
  for (let start = 0; start < items.length; start += size)
    await Promise.all(items.slice(start, start + size).map(each));
}

function apiClient(stack: Stack) {
  const post = async (path: string, body: unknown, token: string) => {
    const response = await fetch(`${stack.apiUrl}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as any;
    if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const slug = stack.deployment.markets[1]!.slug;
  /** One buy, followed with the status route's wait until confirmed; the milliseconds it took. */
  const buyConfirmed = async (token: string): Promise<number> => {
    const started = performance.now();
    const { txId } = await post("/api/trade/buy", { marketSlug: slug, outcome: "Yes", amount: 1 }, token);
    for (;;) {
      const response = await fetch(`${stack.apiUrl}/api/trade/status/${txId}?waitMs=${STATUS_WAIT_MS}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const answer = (await response.json()) as { status: string };
      if (answer.status === "confirmed") return performance.now() - started;
      if (answer.status === "failed") throw new Error(`buy failed: ${JSON.stringify(answer)}`);
      // Still pending after the wait: ask again at once, the route did the waiting. An error answer
      // (a 429 or 503) was not held: a pause before asking again.
      if (!response.ok) await new Promise((resolve) => setTimeout(resolve, ERROR_PAUSE_MS));
    }
  };
  return {
    post,
    buyConfirmed,
    /** Every user buys one at a time for `seconds`: confirmed buys per second and each buy's latency. */
    async sustained(tokens: string[], seconds: number) {
      const deadline = performance.now() + seconds * 1000;
      const latencies: number[] = [];
      await Promise.all(
        tokens.map(async (token) => {
          while (performance.now() < deadline) latencies.push(await buyConfirmed(token));
        }),
      );
      return { perSecond: latencies.length / seconds, latencies };
    },
  };
}
