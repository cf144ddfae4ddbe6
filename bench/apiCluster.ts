// Several API processes sharing one port, for the stream benchmark's scale-out rows: a node:cluster
// primary that runs API_PROCESSES copies of api/server.ts, unchanged, with this process's
// environment. The primary accepts each connection and hands it to the workers in turn
// (round-robin, Node's default on Linux); from then on the worker alone serves it, so the fan-out
// of each event runs in every worker at once, each to its own share of the clients.
//
// Started with child_process.fork: it sends {ready: true} once every worker listens (before that,
// every connection would go to the first one), and stops its workers on SIGTERM.
import cluster from "node:cluster";
import { join } from "node:path";

const processes = Number(process.env.API_PROCESSES ?? 2);

cluster.setupPrimary({ exec: join(import.meta.dirname, "../api/server.ts"), execArgv: ["--import", "tsx"] });
let listening = 0;
cluster.on("listening", () => {
  listening += 1;
  if (listening === processes) process.send?.({ ready: true });
});
let stopping = false;
cluster.on("exit", (worker, code) => {
  if (!stopping) {
    console.error(`API worker ${worker.process.pid} exited (${code}); stopping the others`);
    stop();
    process.exitCode = 1;
  }
  if (Object.keys(cluster.workers ?? {}).length === 0) process.exit();
});

function stop() {
  stopping = true;
  for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);

for (let i = 0; i < processes; i++) cluster.fork();
