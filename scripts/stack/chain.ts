// anvil as the local test network (TEST_NETWORK_CHAIN_ID), on loopback only.
import { join } from "node:path";
import { TEST_NETWORK_CHAIN_ID } from "../../constants";
import { type Child, rpcAnswers, startChild, waitUntil } from "./processes";

export const CHAIN_ID = TEST_NETWORK_CHAIN_ID;
const ANVIL = join(import.meta.dirname, "../../node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil");

/** anvil's default mnemonic: well-known test keys, never for real funds. */
export const TEST_MNEMONIC = "test test test test test test test test test test test junk";

/** Starts on automine; the stack switches to interval mining after set-up. */
export async function startChain(options: {
  port: number;
  logFile: string;
  chainId?: number;
  /** Told about the process as soon as it exists, before it is ready. */
  onSpawn?: (child: Child) => void;
}): Promise<{ child: Child; rpcUrl: string; wsUrl: string }> {
  // The platform binary directly, so the PID we hold is anvil's own.
  const child = startChild(
    "anvil",
    ANVIL,
    [
      "--host",
      "127.0.0.1",
      "--port",
      String(options.port),
      "--chain-id",
      String(options.chainId ?? CHAIN_ID),
      "--mnemonic",
      TEST_MNEMONIC,
      "--accounts",
      "10",
      "--balance",
      "1000000",
      // Gas is sponsored and test ETH is free: a zero base fee stays zero however full the blocks
      // get, where a rising one would strand transactions queued at an older fee.
      "--block-base-fee-per-gas",
      "0",
      "--silent",
    ],
    { logFile: options.logFile },
  );
  options.onSpawn?.(child);
  const rpcUrl = `http://127.0.0.1:${options.port}`;
  await waitUntil("anvil", () => rpcAnswers(rpcUrl), { child, timeoutMs: 30_000 });
  return { child, rpcUrl, wsUrl: `ws://127.0.0.1:${options.port}` };
}
