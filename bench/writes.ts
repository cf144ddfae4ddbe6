// The "writes" table: from POST /api/trade/buy to the status route answering `confirmed` (p50,
// p99) on automine and on 1-second blocks, and confirmed buys per second with 50 users trading.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Stack, startStack } from "../scripts/stack";
import { tokenFor } from "../test/helpers/tokens";
import { median, percentile, printTable } from "./stats";

const USERS = 50;
const SUSTAINED_SECONDS = Number(process.env.BENCH_SECONDS ?? 10) * 2;

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
      const tokens = await Promise.all(Array.from({ length: USERS }, (_, i) => tokenFor(`bench-writer-${i}`)));
      await Promise.all(tokens.map((token) => client.post("/api/wallet/get-or-create", undefined, token)));
      await Promise.all(tokens.map((token) => client.post("/api/wallet/faucet", undefined, token)));
      // Each account's first operation deploys it; that cost is paid once and not measured.
      await Promise.all(tokens.map((token) => client.buyConfirmed(token)));

      const samples = blockTimeMs === 0 ? 100 : 30;
      const latencies: number[] = [];
      for (let i = 0; i < samples; i++) latencies.push(await client.buyConfirmed(tokens[0]!));
      let sustained = "";
      if (blockTimeMs === 0) {
        const deadline = performance.now() + SUSTAINED_SECONDS * 1000;
        let confirmed = 0;
        await Promise.all(
          tokens.map(async (token) => {
            while (performance.now() < deadline) {
              await client.buyConfirmed(token);
              confirmed++;
            }
          }),
        );
        sustained = `${(confirmed / SUSTAINED_SECONDS).toFixed(1)} confirmed buys/s (${USERS} users, ${SUSTAINED_SECONDS} s)`;
      }
      rows.push([
        blockTimeMs === 0 ? "automine" : "1-second blocks",
        `p50 ${median(latencies).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms (${samples} buys)`,
        sustained,
      ]);
    } finally {
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  printTable(
    "writes (POST /api/trade/buy until GET /api/trade/status says confirmed)",
    ["chain", "buy -> confirmed", "sustained"],
    rows,
  );
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
  return {
    post,
    /** One buy, polled until confirmed; the milliseconds it took. */
    async buyConfirmed(token: string): Promise<number> {
      const started = performance.now();
      const { txId } = await post("/api/trade/buy", { marketSlug: slug, outcome: "Yes", amount: 1 }, token);
      for (;;) {
        const response = await fetch(`${stack.apiUrl}/api/trade/status/${txId}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        const { status } = (await response.json()) as { status: string };
        if (status === "confirmed") return performance.now() - started;
        if (status === "failed") throw new Error(`buy ${txId} failed`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}
