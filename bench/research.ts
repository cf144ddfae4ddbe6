// The "research" table: paid GET /api/x402/research end to end with @x402/fetch (the 402, signing
// the EIP-3009 authorization, the paid retry, the research and the settlement on the payment
// chain): p50/p99 of one client's requests in a row, and paid requests per second with many payers.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { x402Client } from "@x402/core/client";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { PAYMENT_NETWORK, PAYMENT_USDC_ADDRESS, RESEARCH_PRICE_UNITS } from "../constants";
import { startStack } from "../scripts/stack";
import { waitForIndexer } from "../scripts/stack/indexer";
import { median, percentile, printTable } from "./stats";

const PAYERS = 20;
const SAMPLES = 100;
const SUSTAINED_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const QUESTIONS = ["Will ETH close above 5000?", "election outcome odds", "rain in Paris tomorrow", "bitcoin halving"];

export async function benchResearch() {
  const dataDir = mkdtempSync(join(tmpdir(), "pm-bench-"));
  const stack = await startStack({
    dataDir,
    deploymentsDir: join(dataDir, "deployments"),
    databaseUrl: process.env.DATABASE_URL,
    blockTimeMs: 0,
    viewsSchema: `bench_views_${Date.now().toString(36)}`,
  });
  try {
    // The corpus reads the indexer's views, which exist once it is ready.
    await waitForIndexer({ indexerUrl: stack.indexerUrl!, rpcUrl: stack.rpcUrl });
    const payers = await Promise.all(Array.from({ length: PAYERS }, () => payer(stack.apiUrl!)));
    const ask = async (pay: typeof fetch, i: number) => {
      const started = performance.now();
      const q = `${QUESTIONS[i % QUESTIONS.length]} ${i}`;
      const response = await pay(`${stack.apiUrl}/api/x402/research?q=${encodeURIComponent(q)}&depth=quick`);
      if (response.status !== 200)
        throw new Error(`paid research answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
      return performance.now() - started;
    };
    // The first request warms the facilitator (it reads what it supports) and the corpus queries.
    await ask(payers[0]!, 0);
    const latencies: number[] = [];
    for (let i = 0; i < SAMPLES; i++) latencies.push(await ask(payers[0]!, i));

    const deadline = performance.now() + SUSTAINED_SECONDS * 1000;
    let paid = 0;
    await Promise.all(
      payers.map(async (pay, p) => {
        for (let i = 0; performance.now() < deadline; i++) {
          await ask(pay, p * 10_000 + i);
          paid++;
        }
      }),
    );
    printTable(
      "research (paid GET /api/x402/research with @x402/fetch: 402, sign, paid retry, research, settlement)",
      ["measure", "result"],
      [
        [
          "one client in a row",
          `p50 ${median(latencies).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms (${SAMPLES} paid requests)`,
        ],
        [
          "sustained",
          `${(paid / SUSTAINED_SECONDS).toFixed(1)} paid requests/s (${PAYERS} payers, ${SUSTAINED_SECONDS} s)`,
        ],
      ],
    );
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A fresh key funded by the payment network's faucet, paying with @x402/fetch. */
async function payer(apiUrl: string): Promise<typeof fetch> {
  const account = privateKeyToAccount(generatePrivateKey());
  const grant = await fetch(`${apiUrl}/api/x402/faucet`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ address: account.address }),
  });
  if (!grant.ok) throw new Error(`faucet: ${grant.status} ${await grant.text()}`);
  const client = x402Client.fromConfig({
    schemes: [{ network: PAYMENT_NETWORK, client: new ExactEvmScheme(account) }],
    spendControls: {
      allowedAssets: [
        { network: PAYMENT_NETWORK, asset: PAYMENT_USDC_ADDRESS, maxAmountPerPayment: RESEARCH_PRICE_UNITS.toString() },
      ],
    },
  });
  return wrapFetchWithPayment(fetch, client) as typeof fetch;
}
