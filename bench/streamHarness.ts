// What the stream benchmark's phases share: mining trades, timing when each became visible,
// driving the client processes (streamClients.ts) and reading their reports, and the API's own
// stream metrics.
import { type ChildProcess, execFileSync, fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import type { Stack } from "../scripts/stack";
import { freePort } from "../scripts/stack/ports";
import type { ChainDriver } from "../test/helpers/chain";
import { dropSchemas } from "./database";

type Report = { samples: [string, number][]; minTrades: number; maxTrades: number };

export const now = () => performance.timeOrigin + performance.now();
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function mine(driver: ChainDriver, txs: Parameters<ChainDriver["mineBlock"]>[0]) {
  const results = await driver.mineBlock(txs, { concurrent: true });
  if (results.some((r) => !r.ok)) throw new Error("a benchmark trade reverted");
}

/** When each trade became visible: the arrival of the notification of the commit that wrote it. */
export async function trackVisibility(db: pg.Client, views: string): Promise<Map<string, number>> {
  const visible = new Map<string, number>();
  let lastBlock = "0";
  let reading = Promise.resolve();
  db.on("notification", () => {
    const at = now();
    reading = reading
      .then(async () => {
        const { rows } = await db.query(`SELECT id, block_number::text FROM "${views}".trade WHERE block_number > $1`, [
          lastBlock,
        ]);
        for (const row of rows) {
          if (!visible.has(row.id)) visible.set(row.id, at);
          if (BigInt(row.block_number) > BigInt(lastBlock)) lastBlock = row.block_number;
        }
      })
      .catch(() => {});
  });
  await db.query(`LISTEN "${views}_live_query"`);
  return visible;
}

/** Waits until every client has every trade (or a minute), then turns the probes' samples into latencies. */
export async function collect(workers: ChildProcess[], visible: Map<string, number>, expected: number) {
  const started = now();
  let reports: Report[];
  do {
    await sleep(500);
    reports = await Promise.all(workers.map((worker) => ask<Report>(worker, { cmd: "report" })));
  } while (Math.min(...reports.map((r) => r.minTrades)) < expected && now() - started < 60_000);
  const drainSeconds = (now() - started) / 1000;
  await Promise.all(workers.map((worker) => ask(worker, { cmd: "reset" })));
  const latencies: number[] = [];
  for (const report of reports) {
    for (const [id, receivedAt] of report.samples) {
      const visibleAt = visible.get(id);
      if (visibleAt !== undefined) latencies.push(receivedAt - visibleAt);
    }
  }
  if (latencies.length === 0) throw new Error(`no trade event arrived (expected ${expected}; ${visible.size} visible)`);
  return {
    latencies,
    drainSeconds,
    minTrades: Math.min(...reports.map((r) => r.minTrades)),
    maxTrades: Math.max(...reports.map((r) => r.maxTrades)),
  };
}

/** Reads `url` one request at a time, 20 ms apart, until stopped; resolves to each one's latency. */
export function pollReads(url: string) {
  const latencies: number[] = [];
  let running = true;
  const polling = (async () => {
    while (running) {
      const started = now();
      await (await fetch(url)).arrayBuffer();
      latencies.push(now() - started);
      await sleep(20);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await polling;
      return latencies;
    },
  };
}

export function ask<T = unknown>(worker: ChildProcess, message: object): Promise<T> {
  return new Promise((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`a client process exited (${code})`));
    worker.once("exit", exited);
    worker.once("message", (reply) => {
      worker.off("exit", exited);
      resolve(reply as T);
    });
    worker.send(message);
  });
}

export const mb = (kb: number) => (kb / 1024).toFixed(0);

/**
 * The API's own view, as running totals: slow clients dropped, the time of each fan-out of a batch
 * to every client, and the delay from the indexer's notification to the fan-out (with how many
 * were within 250 ms).
 */
export async function streamMetrics(stack: Stack) {
  const metrics = await (await fetch(`${stack.apiUrl}/metrics`)).text();
  const value = (name: string) =>
    Number(new RegExp(`^${name.replace(/[{}"+.]/g, "\\$&")} ([0-9.e+-]+)`, "m").exec(metrics)?.[1] ?? NaN);
  return {
    dropped: value("stream_slow_clients_dropped"),
    fanout: { sum: value("stream_fanout_seconds_sum"), count: value("stream_fanout_seconds_count") },
    delay: {
      sum: value("stream_delay_seconds_sum"),
      count: value("stream_delay_seconds_count"),
      within250ms: value('stream_delay_seconds_bucket{le="0.25"}'),
    },
  };
}

type StreamMetrics = Awaited<ReturnType<typeof streamMetrics>>;
export const fanoutBetween = (before: StreamMetrics, after: StreamMetrics) => {
  const count = after.fanout.count - before.fanout.count;
  return `mean ${(((after.fanout.sum - before.fanout.sum) / count) * 1000).toFixed(1)} ms (${count})`;
};
export const delayBetween = (before: StreamMetrics, after: StreamMetrics) => {
  const count = after.delay.count - before.delay.count;
  const within = after.delay.within250ms - before.delay.within250ms;
  return `mean ${(((after.delay.sum - before.delay.sum) / count) * 1000).toFixed(1)} ms, ${((within / count) * 100).toFixed(0)}% within 250 ms`;
};

/** The benchmark's schemas and its stream rows, on a shared database. */
export async function dropFeed(stack: Stack, views: string) {
  if (stack.databaseEmbedded) return;
  await dropSchemas(stack, [stack.indexerSchema, views]);
  const client = new pg.Client(stack.databaseUrl);
  await client.connect();
  await client.query("DELETE FROM api.stream_event WHERE feed = $1", [views]);
  await client.query("DELETE FROM api.stream_trade WHERE feed = $1", [views]);
  await client.end();
}

/**
 * The API as the process `like` runs it (its environment, read from /proc), as `processes` processes
 * sharing one new port through bench/apiCluster.ts; ready once every one of them listens.
 */
export async function startApiCluster(options: { like: number; processes: number }) {
  const environment = Object.fromEntries(
    readFileSync(`/proc/${options.like}/environ`, "utf8")
      .split("\0")
      .filter((entry) => entry.includes("="))
      .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
  );
  const port = await freePort();
  const primary = fork(join(import.meta.dirname, "apiCluster.ts"), {
    execArgv: ["--import", "tsx"],
    env: { ...environment, PORT: String(port), API_PROCESSES: String(options.processes) },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const exited = new Promise<void>((resolve) => primary.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the API cluster did not listen within 60 s")), 60_000);
    primary.once("message", () => {
      clearTimeout(timer);
      resolve();
    });
    primary.once("exit", (code) => reject(new Error(`the API cluster exited (${code})`)));
  });
  return {
    pid: primary.pid!,
    url: `http://127.0.0.1:${port}`,
    /** Connections each process holds, as `ss` lists the sockets of the port (largest first). */
    connectionsPerProcess: () => {
      const counts = new Map<string, number>();
      const sockets = execFileSync("ss", ["-tnpH", "state", "established", `( sport = :${port} )`], {
        encoding: "utf8",
        maxBuffer: 64 << 20,
      });
      for (const pid of sockets.matchAll(/pid=(\d+)/g)) counts.set(pid[1]!, (counts.get(pid[1]!) ?? 0) + 1);
      return [...counts.values()].sort((a, b) => b - a);
    },
    stop: async () => {
      primary.kill("SIGTERM");
      await exited;
    },
  };
}
