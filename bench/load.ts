// HTTP load at a fixed number of connections: wrk when the machine has it (a native load generator
// takes less of the CPU that the server under test needs), autocannon otherwise.
import { execFileSync, spawnSync } from "node:child_process";
import autocannon from "autocannon";

export type LoadResult = { requestsPerSecond: number; p99Ms: number; tool: string };

const hasWrk = (() => {
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" });
    return true;
  } catch (error) {
    // wrk prints its version and exits 1.
    return (error as { status?: number }).status === 1;
  }
})();

export async function load(url: string, connections: number, seconds: number): Promise<LoadResult> {
  if (hasWrk) return loadWithWrk(url, connections, seconds);
  const result = await autocannon({ url, connections, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { requestsPerSecond: result.requests.average, p99Ms: result.latency.p99, tool: "autocannon" };
}

function loadWithWrk(url: string, connections: number, seconds: number): LoadResult {
  const run = spawnSync("wrk", ["-t2", `-c${connections}`, `-d${seconds}s`, "--timeout", "30s", "--latency", url], {
    encoding: "utf8",
  });
  const out = run.stdout;
  if (/Non-2xx or 3xx responses|Socket errors/.test(out)) throw new Error(`${url}: errors under load\n${out}`);
  const rate = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)/.exec(out);
  if (!rate || !p99) throw new Error(`cannot read wrk's output:\n${out}`);
  const p99Ms = Number(p99[1]) * (p99[2] === "us" ? 0.001 : p99[2] === "s" ? 1000 : 1);
  return { requestsPerSecond: rate, p99Ms, tool: "wrk" };
}
