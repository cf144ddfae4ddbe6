// Child processes of the local stack: each logs to its own file, and all of them stop together.
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";

export type Child = { name: string; process: ChildProcess; logFile: string };

export function startChild(
  name: string,
  command: string,
  args: string[],
  options: { logFile: string; env?: NodeJS.ProcessEnv; cwd?: string },
): Child {
  mkdirSync(dirname(options.logFile), { recursive: true });
  // The child writes its log file itself: nothing of its output passes through this process.
  const log = openSync(options.logFile, "a");
  // detached: the child leads its own process group, so stopping it also stops its children.
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", log, log],
    detached: true,
  });
  closeSync(log);
  return { name, process: child, logFile: options.logFile };
}

/** SIGTERM to the child's process group, SIGKILL after `graceMs`; resolves once it has exited. */
export async function stopChild(child: Child, graceMs = 5_000): Promise<void> {
  const proc = child.process;
  if (proc.exitCode !== null || proc.signalCode !== null || proc.pid === undefined) return;
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  signalGroup(proc.pid, "SIGTERM");
  const timer = setTimeout(() => signalGroup(proc.pid!, "SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

function signalGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** Polls `probe` until it resolves true, failing with the child's log path if the child dies. */
export async function waitUntil(
  what: string,
  probe: () => Promise<boolean>,
  options: { timeoutMs?: number; child?: Child } = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    const proc = options.child?.process;
    if (proc && (proc.exitCode !== null || proc.signalCode !== null)) {
      throw new Error(`${what} exited early (code ${proc.exitCode ?? proc.signalCode}); see ${options.child!.logFile}`);
    }
    if (await probe().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} was not ready in time${options.child ? `; see ${options.child.logFile}` : ""}`);
}

/** True when a JSON-RPC endpoint answers eth_chainId. */
export async function rpcAnswers(url: string): Promise<boolean> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
  });
  const body = (await response.json()) as { result?: unknown };
  return response.ok && typeof body.result === "string";
}
