// Alto, the ERC-4337 bundler, in front of the local chain and EntryPoint v0.7. Its keys go in its
// environment (Alto reads every option from ALTO_<OPTION> through yargs), never on its command
// line, which any user of the host sees with `ps`; a process's environment only its owner reads.
import { join } from "node:path";
import { entryPoint07Address } from "viem/account-abstraction";
import { localExtraExecutorKeys } from "./keys";
import { type Child, rpcAnswers, startNodeChild, waitUntil } from "./processes";

const ALTO = join(import.meta.dirname, "../../node_modules/.bin/alto");

export async function startBundler(options: {
  port: number;
  rpcUrl: string;
  executorKey: string;
  utilityKey: string;
  blockTimeMs: number;
  logFile: string;
  onSpawn?: (child: Child) => void;
}): Promise<{ child: Child; bundlerUrl: string }> {
  const child = startNodeChild(
    "alto",
    ALTO,
    [
      "--entrypoints",
      entryPoint07Address,
      "--rpc-url",
      options.rpcUrl,
      "--port",
      String(options.port),
      // A local chain has no staked entities to check; every other validation rule still runs.
      "--safe-mode",
      "false",
      "--block-time",
      String(Math.max(options.blockTimeMs, 100)),
      "--block-number-cache-ttl",
      "200",
      "--log-level",
      "warn",
      // One user may have many operations in flight (parallel nonce keys), e.g. an agent trading fast.
      "--mempool-max-parallel-ops",
      "100",
      // Alto waits min-bundle-interval plus 10 ms per operation of the last minute between bundles,
      // up to max-bundle-interval (default 1 s): under load a write waited most of a second for
      // its bundle. A bundle every 50 ms at most keeps that wait short; the extra executors let
      // the next bundle go while the last one is being mined.
      "--min-bundle-interval",
      "10",
      "--max-bundle-interval",
      "50",
    ],
    {
      logFile: options.logFile,
      env: {
        ALTO_EXECUTOR_PRIVATE_KEYS: [options.executorKey, ...localExtraExecutorKeys()].join(","),
        ALTO_UTILITY_PRIVATE_KEY: options.utilityKey,
      },
    },
  );
  options.onSpawn?.(child);
  const bundlerUrl = `http://127.0.0.1:${options.port}/rpc`;
  await waitUntil("alto", () => rpcAnswers(bundlerUrl), { child, timeoutMs: 60_000 });
  return { child, bundlerUrl };
}
