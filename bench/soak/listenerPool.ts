// The soak's stream clients, in processes of their own (listeners.ts) at a lower CPU priority, so
// that reading a thousand streams takes as little as it can from the API under test.
import { type ChildProcess, fork } from "node:child_process";
import { setPriority } from "node:os";
import { join } from "node:path";
import { mergeStreamGaps, type StreamGaps } from "./checks";
import type { ListenerCommand, ListenerStatus } from "./listeners";

export type PoolStatus = ListenerStatus & { inconsistent: number };

export type ListenerPool = {
  status(): Promise<PoolStatus>;
  /** The clients' gaps against the trades they should all have received. */
  check(expected: string[]): Promise<PoolStatus & { gaps: StreamGaps }>;
  close(): void;
};

/** Opens `clients` stream clients to `apiUrl`, spread over `processes` processes; resolves once all are connected. */
export async function openListeners(apiUrl: string, clients: number, processes: number): Promise<ListenerPool> {
  const url = new URL(apiUrl);
  const workers: ChildProcess[] = Array.from({ length: processes }, () =>
    fork(join(import.meta.dirname, "listeners.ts"), { execArgv: ["--import", "tsx"], stdio: "inherit" }),
  );
  const pool: ListenerPool = {
    status: async () => sum(await Promise.all(workers.map((worker) => ask<PoolStatus>(worker, { cmd: "status" })))),
    check: async (expected) => {
      const replies = await Promise.all(
        workers.map((worker) => ask<PoolStatus & { gaps: StreamGaps }>(worker, { cmd: "check", expected })),
      );
      return { ...sum(replies), gaps: mergeStreamGaps(replies.map((reply) => reply.gaps)) };
    },
    close: () => {
      for (const worker of workers) if (worker.connected) worker.send({ cmd: "close" });
    },
  };
  try {
    for (const worker of workers) setPriority(worker.pid!, 10);
    await Promise.all(
      workers.map((worker, i) =>
        ask(worker, {
          cmd: "connect",
          host: url.hostname,
          port: Number(url.port),
          count: Math.floor(clients / processes) + (i < clients % processes ? 1 : 0),
        }),
      ),
    );
  } catch (error) {
    pool.close();
    throw error;
  }
  return pool;
}

function sum(parts: PoolStatus[]): PoolStatus {
  const total = { clients: 0, open: 0, reconnects: 0, refused: 0, outOfOrder: 0, tradesReceived: 0, inconsistent: 0 };
  for (const part of parts) for (const key of Object.keys(total) as (keyof PoolStatus)[]) total[key] += part[key];
  return total;
}

function ask<T = unknown>(worker: ChildProcess, message: ListenerCommand): Promise<T> {
  return new Promise((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`a stream client process exited (${code})`));
    worker.once("exit", exited);
    worker.once("message", (reply) => {
      worker.off("exit", exited);
      resolve(reply as T);
    });
    worker.send(message);
  });
}
